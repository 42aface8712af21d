/**
 * The core's use cases without HTTP: each failure point of the store and the gateway, one table
 * row each, and what must hold whatever fails: at most one charge per order, "nothing was
 * charged" only when nothing was sent, and a retry that ends on the gateway's truth.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CheckoutError } from '../src/errors.js';
import { callerOf } from '../src/setup/caller.js';
import type { CheckoutOrder } from '../src/options.js';
import type { OwnedPaymentState } from '../src/payment-state.js';
import { orderStatus, paymentStatus } from '../src/use-cases/status.js';
import { confirmStep2 } from '../src/use-cases/confirm-step2.js';
import { FakeGateway } from '@pg-checkout/test-helpers/fake-gateway';
import { FlakyStore } from '@pg-checkout/test-helpers/flaky-store';
import { coreHarness } from './helpers/core.js';

function setup(order: CheckoutOrder, store = new FlakyStore(), gateway = new FakeGateway()) {
  let now = 1_800_000_000_000;
  const core = coreHarness({ store, gateway, resolveOrder: () => order, now: () => now });
  const pay = async (number = '4111111111111111') => {
    try {
      return { state: await core.pay(number) };
    } catch (error) {
      assert.ok(error instanceof CheckoutError, `a typed answer, not ${String(error)}`);
      return { error };
    }
  };
  return {
    ...core,
    pay,
    advance: (ms: number) => void (now += ms),
    creates: () => gateway.calls.filter((c) => c === 'create').length,
  };
}

const order = (reference: string): CheckoutOrder => ({
  amount: 14_900,
  currency: 'ZAR',
  reference,
});

describe('a card payment whose store fails at each of its calls', () => {
  for (const failure of ['down', 'wiped'] as const) {
    it(`store ${failure} from call k on: at most one charge, and the retry answers the truth`, async () => {
      for (let k = 0; ; k++) {
        const t = setup(order(`store-${failure}-${k}`));
        if (failure === 'down') t.store.failAfter(k);
        const first = await t.pay();
        const createsBefore = t.creates();
        const reachedEnd = !t.store.down;
        if (first.error) {
          assert.ok(first.error.status >= 400 && first.error.status < 600);
          if (/[Nn]othing was charged/.test(first.error.message))
            assert.equal(createsBefore, 0, `k=${k}: "nothing charged" after a create was sent`);
        }
        t.store.reset();
        if (failure === 'wiped') t.store.wipe();
        const retry = await t.pay();
        assert.equal(retry.state?.status, 'approved', `k=${k}: ${JSON.stringify(retry)}`);
        assert.equal(t.gateway.charged().length, 1, `k=${k}: charged once`);
        if (first.state?.status === 'approved')
          assert.equal(retry.state!.reference, first.state.reference);
        if (reachedEnd) {
          // k passed the last store call of a payment: every call before it failed once.
          if (failure === 'down') assert.ok(k >= 2, `only ${k} store calls were tried`);
          break;
        }
        assert.ok(k < 40, 'a payment makes a bounded number of store calls');
      }
    });
  }
});

describe('a card payment whose gateway fails', () => {
  const rows: {
    name: string;
    arrange(t: ReturnType<typeof setup>): void;
    first: string;
    afterGrace?: boolean;
  }[] = [
    {
      name: 'create processed, answer lost: reconciled to approved at once',
      arrange: (t) => void (t.gateway.createFault = 'processed'),
      first: 'approved',
    },
    {
      name: 'create lost before the gateway: "wait", then a new try after the grace',
      arrange: (t) => void (t.gateway.createFault = 'lost'),
      first: 'gateway_timeout',
      afterGrace: true,
    },
    {
      name: 'the gateway down before anything is sent: 503, nothing charged, and the retry pays',
      arrange: (t) => void (t.gateway.reconcileDown = true),
      first: 'gateway_unavailable',
    },
    {
      name: 'create processed and the lookup down: "wait", never a second create',
      arrange: (t) => {
        t.gateway.createFault = 'processed';
        // Down from the create on (before it, the order's attempts are read from the gateway).
        t.gateway.afterCreate = () => void (t.gateway.reconcileDown = true);
      },
      first: 'gateway_timeout',
    },
  ];
  for (const row of rows) {
    it(row.name, async () => {
      const t = setup(order(`gw-${row.name.length}-${Math.random()}`));
      row.arrange(t);
      const first = await t.pay();
      const seen = first.state
        ? first.state.status === 'approved'
          ? 'approved'
          : (first.state as { code?: string }).code
        : first.error!.code;
      assert.equal(seen, row.first);
      t.gateway.reconcileDown = false;
      // The shopper presses Pay again at once: never a second charge.
      const again = await t.pay();
      assert.ok(t.gateway.charged().length <= 1);
      if (row.afterGrace) {
        assert.equal((again.state as { code?: string } | undefined)?.code, 'gateway_timeout');
        t.advance(t.ctx.reconcileGraceMs + 1);
        const later = await t.pay();
        assert.equal(later.state?.status, 'approved');
      } else assert.equal(again.state?.status, 'approved');
      assert.equal(t.gateway.charged().length, 1);
    });
  }
});

describe('what the order is now (GET /order, for a browser that lost an answer)', () => {
  it('open before any payment, checking while a create is unanswered, paid after', async () => {
    const t = setup(order('lost-answer'));
    assert.equal((await orderStatus(t.caller(), t.ctx)).status, 'open');
    t.gateway.createFault = 'lost';
    await t.pay();
    assert.equal((await orderStatus(t.caller(), t.ctx)).status, 'checking');
    t.advance(t.ctx.reconcileGraceMs + 1);
    assert.equal(
      (await orderStatus(t.caller(), t.ctx)).status,
      'open',
      'never reached the gateway',
    );
    const paid = await t.pay();
    const now = await orderStatus(t.caller(), t.ctx);
    assert.equal(now.status, 'paid');
    assert.equal((now as { payment: OwnedPaymentState }).payment.reference, paid.state!.reference);
    assert.ok((now as { payment: OwnedPaymentState }).payment.clientSecret);
  });

  it('in_progress with the 3-D Secure action to resume; a store that forgot it reads checking', async () => {
    const t = setup(order('in-3ds'));
    const created = await t.pay('4000000000003055');
    assert.equal(created.state?.status, 'authenticating');
    const now = await orderStatus(t.caller(), t.ctx);
    assert.equal(now.status, 'in_progress');
    assert.equal((now as { payment: OwnedPaymentState }).payment.status, 'authenticating');
    t.store.wipe();
    assert.equal((await orderStatus(t.caller(), t.ctx)).status, 'checking');
  });

  it('a status read sends nothing to the gateway that could move money', async () => {
    const t = setup(order('read-only'));
    const created = await t.pay('4000000000003055');
    const before = [...t.gateway.calls];
    const reference = created.state!.reference!;
    const merchantReference = 'read-only-1';
    await assert.rejects(
      paymentStatus({ reference, merchantReference }, t.caller(), t.ctx).then((s) => {
        if (s.status === 'authenticating') throw new CheckoutError(503, 'still', 'authenticating');
      }),
    );
    const sent = t.gateway.calls.slice(before.length);
    assert.deepEqual(
      sent.filter((c) => !['lookup', 'redirectLookup', 'reconcile'].includes(c)),
      [],
    );
  });
});

describe("Step 2 from another allowed page than the payment's", () => {
  it('is refused forbidden_origin: the edge allows the origin, only the record knows the page', async () => {
    const t = setup(order('step2-page'));
    const created = await t.pay('4000000000003063');
    assert.equal(created.state?.status, 'authenticating');
    const payment = { reference: created.state!.reference!, merchantReference: 'step2-page-1' };
    const other = callerOf(t.ctx, null, {
      clientIp: '198.51.100.7',
      pageOrigin: 'https://other.shop.test',
    });
    await assert.rejects(confirmStep2(payment, other, t.ctx), (error: CheckoutError) => {
      assert.equal(error.code, 'forbidden_origin');
      assert.equal(error.status, 403);
      return true;
    });
    assert.ok(!t.gateway.calls.includes('confirmStep2'), 'nothing sent for the other page');
    const state = await confirmStep2(payment, t.caller(), t.ctx);
    assert.equal(state.status, 'authenticating');
    assert.ok(t.gateway.calls.includes('confirmStep2'), 'the starting page goes on');
  });
});
