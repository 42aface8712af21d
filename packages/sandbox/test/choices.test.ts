/* eslint-disable @typescript-eslint/no-explicit-any -- answers are read field by field */
/**
 * The choices the sandbox makes where the spec says "not shown", each in both profiles: the default
 * answers helpfully, the strict profile the least helpful way the spec allows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSandbox, PROFILE_CHOICES, seededRandom, type SandboxProfile } from '../src/index.js';
import { payOnPage } from './helpers/forms.js';
import { startReceiver, waitFor } from './helpers/receiver.js';
import {
  assertRefused,
  createBody,
  ref,
  startHarness,
  YEAR,
  type Harness,
} from './helpers/sandbox.js';

const HOUR = 60 * 60 * 1000;
const URLS = {
  success: 'http://shop.test/success',
  cancel: 'http://shop.test/cancel',
  error: 'http://shop.test/error',
};
const consumer = { name: 'Annabel', surname: 'Lee', email: 'annabel@example.test' };

describe('profiles and choices', () => {
  it('createSandbox takes a profile and single choices over it; sandbox.choices and GET /_sandbox/choices answer them', async () => {
    for (const profile of ['default', 'strict'] as const) {
      const sandbox = await createSandbox({ profile });
      try {
        assert.equal(sandbox.profile, profile);
        assert.deepEqual(sandbox.choices, PROFILE_CHOICES[profile]);
        const res = (await (await fetch(`${sandbox.url}/_sandbox/choices`)).json()) as any;
        assert.deepEqual(res, { success: true, profile, choices: PROFILE_CHOICES[profile] });
      } finally {
        await sandbox.close();
      }
    }
    assert.equal(PROFILE_CHOICES.strict.duplicateReference, 'new-transaction');
    assert.equal(PROFILE_CHOICES.strict.overRefund, 'accept');
    assert.equal(PROFILE_CHOICES.strict.listMatch, 'exact');
    assert.equal(PROFILE_CHOICES.strict.webhooks, 'hostile');
    const mixed = await createSandbox({ profile: 'strict', choices: { overRefund: 'refuse' } });
    try {
      assert.deepEqual(mixed.choices, { ...PROFILE_CHOICES.strict, overRefund: 'refuse' });
    } finally {
      await mixed.close();
    }
    await assert.rejects(createSandbox({ profile: 'lenient' as never }), /`profile` must be/);
    await assert.rejects(
      createSandbox({ choices: { overRefunds: 'accept' } as never }),
      /unknown choice `overRefunds`/,
    );
    await assert.rejects(
      createSandbox({ choices: { webhooks: 'sometimes' } as never }),
      /choice `webhooks` must be 'reliable' or 'hostile'/,
    );
    await assert.rejects(createSandbox({ choices: { listLimit: 0 } }), /whole number from 1/);
  });
});

for (const profile of ['default', 'strict'] as const satisfies readonly SandboxProfile[]) {
  const strict = profile === 'strict';
  describe(`the ${profile} profile`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness({ profile });
    });
    after(() => h.close());

    const settled = async (amount = 10_000): Promise<string> =>
      (
        await h.client.payments.create(
          createBody('4111111111111111', {
            autoExecute: true,
            transaction: { reference: ref(), currency: 'ZAR', amount },
          }) as never,
        )
      ).reference;

    it(`duplicateReference: a reused merchant reference ${strict ? 'makes a new transaction on v2, v3, redirect, EFT and refund, and the lookup answers the latest' : 'is refused with fin094 on v2, v3, redirect, EFT and refund'}`, async () => {
      const merchantRef = ref('again');
      const first = await h.client.redirects.createEft({
        transaction: { reference: merchantRef, currency: 'ZAR', amount: 900 },
        consumer,
        urls: URLS,
      } as never);
      const tx = (currency = 'ZAR') => ({ reference: merchantRef, currency, amount: 900 });
      const payment = await settled();
      const attempts: [string, unknown][] = [
        ['/pg/api/v2/payment/create', { ...createBody('4111111111111111'), transaction: tx() }],
        ['/pg/api/v3/payment/create', { transaction: tx('USD'), urls: URLS }],
        ['/pg/api/v2/redirect/create', { transaction: tx(), consumer, urls: URLS }],
        ['/pg/api/v2/payment/create/eft', { transaction: tx(), consumer, urls: URLS }],
        [`/pg/api/v2/payment/${payment}/refund`, { transaction: { ...tx(), amount: 100 } }],
      ];
      const made = new Set<string>([first.reference]);
      let latest = first.reference;
      for (const [path, body] of attempts) {
        const res = await h.raw('POST', path, JSON.stringify(body));
        if (strict) {
          assert.equal(res.json.success, true, `${path} ${JSON.stringify(res.json)}`);
          assert.ok(!made.has(res.json.reference), path);
          made.add(res.json.reference);
          latest = res.json.reference;
          const found = await h.client.lookups.byMerchantReference(merchantRef);
          assert.equal(found.reference, latest, path);
        } else {
          assertRefused(res, 'fin094');
          assert.equal(res.json.reference, first.reference, path);
        }
      }
      const all = await h.inspect(`/_sandbox/transactions?merchantReference=${merchantRef}`);
      assert.equal(all.transactions.length, strict ? 6 : 1);
      const found = await h.client.lookups.byMerchantReference(merchantRef);
      assert.equal(found.reference, latest);
      if (strict) assert.equal(found.amount, -100, 'the latest is the refund');
    });

    it(`overRefund: a refund over what is left is ${strict ? 'accepted, also after the payment is fully refunded' : 'refused with fin058'}`, async () => {
      const payment = await settled(10_000);
      await h.client.payments.refund(payment, { currency: 'ZAR', amount: 3_000 });
      const over = await h.raw(
        'POST',
        `/pg/api/v2/payment/${payment}/refund`,
        JSON.stringify({ transaction: { currency: 'ZAR', amount: 8_000 } }),
      );
      const record = await h.inspect(`/_sandbox/transactions/${payment}`);
      if (strict) {
        assert.equal(over.json.success, true, JSON.stringify(over.json));
        assert.equal(record.refunded, 11_000);
        assert.equal(record.status, 'REFUNDED');
        const again = await h.client.payments.refund(payment, { currency: 'ZAR', amount: 500 });
        assert.equal(again.kind, 'refunded');
        assert.equal((await h.inspect(`/_sandbox/transactions/${payment}`)).refunded, 11_500);
      } else {
        assertRefused(over, 'fin058');
        assert.equal(record.refunded, 3_000);
        assert.equal(record.status, 'SETTLED');
      }
    });

    it('list by paymentReference: only the transaction it names, never its refunds (spec, both profiles)', async () => {
      const payment = await settled(10_000);
      await h.client.payments.refund(payment, { currency: 'ZAR', amount: 1_000 });
      await h.client.payments.refund(payment, { currency: 'ZAR', amount: 1_007 });
      const list = await h.client.lookups.list({ paymentReference: payment });
      assert.deepEqual(
        list.map((t) => [t.reference, t.amount]),
        [[payment, 10_000]],
      );
      assert.deepEqual(await h.client.lookups.list({ paymentReference: 'NO-SUCH' }), []);
    });

    it(`listMatch: consumer fields, status and paymentMethod match ${strict ? 'only exactly' : 'in part and in any case'}`, async () => {
      const merchantRef = ref('who');
      const out = await h.client.redirects.create({
        transaction: { reference: merchantRef, currency: 'ZAR', amount: 1_500 },
        consumer,
        urls: URLS,
      } as never);
      await payOnPage(out.redirectUrl, '4111111111111111', YEAR);
      const find = async (filters: Record<string, unknown>): Promise<boolean> =>
        (await h.client.lookups.list({ merchantReference: merchantRef, ...filters } as never))
          .length === 1;
      for (const exact of [
        { consumerFirstname: 'Annabel' },
        { consumerSurname: 'Lee' },
        { consumerEmail: 'annabel@example.test' },
        { status: 'SETTLED', paymentMethod: 'CC' },
      ]) {
        assert.equal(await find(exact), true, JSON.stringify(exact));
      }
      for (const loose of [
        { consumerFirstname: 'anna' },
        { consumerSurname: 'LE' },
        { consumerEmail: 'example.test' },
        { status: 'settled' },
        { paymentMethod: 'cc' },
      ]) {
        assert.equal(await find(loose), !strict, JSON.stringify(loose));
      }
    });

    it(`listOrder and newInList: ${strict ? 'newest first, payments still NEW left out' : 'oldest first, payments still NEW listed'}`, async () => {
      const merchantRef = ref('order');
      const older = await h.client.redirects.create({
        transaction: { reference: merchantRef, currency: 'ZAR', amount: 700 },
        urls: URLS,
      } as never);
      await payOnPage(older.redirectUrl, '4111111111111111', YEAR);
      await h.advance(1_000);
      const unpaid = await h.raw(
        'POST',
        '/pg/api/v2/redirect/create',
        JSON.stringify({
          transaction: { reference: ref('order'), currency: 'ZAR', amount: 700 },
          urls: URLS,
        }),
      );
      await h.advance(1_000);
      const newer = await settled(700);
      const list = await h.client.lookups.list({ amount: 700 });
      const refs = list.map((t) => t.reference);
      const expected = strict
        ? [newer, older.reference]
        : [older.reference, unpaid.json.reference, newer];
      assert.deepEqual(
        refs.filter((r) => [older.reference, unpaid.json.reference, newer].includes(r)),
        expected,
      );
    });

    it(`pendingRecords: a manual refund reads ${strict ? 'SETTLED with its negative amount and pending true' : 'NEW with pending true'}, then REFUNDED`, async () => {
      const payment = await settled(10_000);
      const merchantRef = ref('manual');
      const pending = await h.client.payments.refund(payment, {
        reference: merchantRef,
        currency: 'ZAR',
        amount: 1_007,
      });
      assert.equal(pending.kind, 'pending');
      const before = await h.client.lookups.byMerchantReference(merchantRef);
      assert.deepEqual(
        [before.status, before.amount, before.pending],
        [strict ? 'SETTLED' : 'NEW', -1_007, true],
      );
      const listed = await h.client.lookups.list({ paymentReference: before.reference });
      assert.deepEqual(
        listed.map((t) => [t.status, t.pending]),
        [[strict ? 'SETTLED' : 'NEW', true]],
      );
      await h.advance(24 * HOUR);
      const done = await h.client.lookups.byMerchantReference(merchantRef);
      assert.deepEqual([done.status, done.pending], ['REFUNDED', false]);
    });

    it(`refundNotification: a refund's notification carries ${strict ? "the refund's own references" : "the payment's references"} and the negative amount`, async () => {
      const hook = await startReceiver();
      const own = await startHarness({
        profile,
        choices: { webhooks: 'reliable' },
        settings: { notifyRefunds: true },
      });
      try {
        const out = await own.client.foreign.create({
          transaction: { reference: ref('v3'), currency: 'USD', amount: 2_000 },
          urls: { ...URLS, notify: hook.url },
        } as never);
        await payOnPage(out.redirectUrl, '4111111111111111', YEAR);
        const refundRef = ref('r');
        await own.client.foreign.refund(out.reference, {
          reference: refundRef,
          currency: 'USD',
          amount: 500,
        } as never);
        const got = await waitFor(() => hook.received.find((r) => r.json.status === 'REFUNDED'));
        const refund = await own.client.lookups.byMerchantReference(refundRef);
        assert.equal(got.json.amount, -500);
        assert.deepEqual(
          [got.json.paymentReference, got.json.merchantReference],
          strict
            ? [refund.reference, refundRef]
            : [
                out.reference,
                (await own.inspect(`/_sandbox/transactions/${out.reference}`)).merchantReference,
              ],
        );
      } finally {
        await own.close();
        await hook.close();
      }
    });
  });
}

describe('webhooks: hostile (seeded)', () => {
  it('with a seeded random, notifications come twice, out of order, never, and late until POST /_sandbox/clock releases them; the same seed gives the same run', async () => {
    const run = async (seed: number) => {
      const hook = await startReceiver();
      const h = await startHarness({
        profile: 'strict',
        random: seededRandom(seed),
        settings: { notifyRefunds: true },
      });
      try {
        const out = await h.client.foreign.create({
          transaction: { reference: ref('v3'), currency: 'USD', amount: 100_000 },
          urls: { ...URLS, notify: hook.url },
        } as never);
        await payOnPage(out.redirectUrl, '4111111111111111', YEAR);
        // 24 refunds, each notified with its own reference (strict), in the order they were made.
        const sent: string[] = [];
        for (let i = 1; i <= 24; i++) {
          const merchantRef = ref('hostile');
          await h.client.foreign.refund(out.reference, {
            reference: merchantRef,
            currency: 'USD',
            amount: 100 * i,
          } as never);
          sent.push(merchantRef);
        }
        const deliveries = async () =>
          ((await h.inspect(`/_sandbox/transactions/${out.reference}`)).webhooks as any[]).filter(
            (d) => d.payload.status === 'REFUNDED',
          );
        const due = (d: any) => d.hostile !== 'late' && d.hostile !== 'copy';
        const all = await deliveries();
        // Wait for the ones due now to be answered before the clock moves.
        const end = Date.now() + 5_000;
        while (!(await deliveries()).filter(due).every((d) => d.state !== 'pending')) {
          assert.ok(Date.now() < end, 'on-time notifications were not delivered');
          await new Promise((r) => setTimeout(r, 20));
        }
        const early = hook.received
          .filter((r) => r.json.status === 'REFUNDED')
          .map((r) => String(r.json.merchantReference));
        await h.advance(3 * HOUR);
        const received = hook.received
          .filter((r) => r.json.status === 'REFUNDED')
          .map((r) => String(r.json.merchantReference));
        const plans = all.map((d) => d.hostile ?? 'on-time');
        return { sent, early, received, plans };
      } finally {
        await h.close();
        await hook.close();
      }
    };
    const { sent, early, received, plans } = await run(38);
    const count = (r: string) => received.filter((x) => x === r).length;
    const twice = sent.filter((r) => count(r) === 2);
    const never = sent.filter((r) => count(r) === 0);
    const late = sent.filter((r) => !early.includes(r) && count(r) > 0);
    const index = received.map((r) => sent.indexOf(r));
    const outOfOrder = index.some((v, i) => i > 0 && v < index[i - 1]!);
    assert.ok(twice.length >= 1, `one delivered twice: ${JSON.stringify(plans)}`);
    assert.ok(never.length >= 1, `one never delivered: ${JSON.stringify(plans)}`);
    assert.ok(late.length >= 1, `one held until the clock moved: ${JSON.stringify(plans)}`);
    assert.ok(outOfOrder, `out of order: ${JSON.stringify(index)}`);
    assert.ok(early.length < received.length);
    // Every notification sent is delivered at most twice, and none the sandbox dropped arrives.
    assert.ok(sent.every((r) => count(r) <= 2));
    assert.equal(never.length, plans.filter((p) => p === 'dropped').length);
    const again = await run(38);
    assert.deepEqual(again.plans, plans, 'the same seed makes the same choices');
  });

  it('reliable webhooks deliver each notification once, in order', async () => {
    const hook = await startReceiver();
    const h = await startHarness({ settings: { notifyRefunds: true } });
    try {
      const out = await h.client.foreign.create({
        transaction: { reference: ref('v3'), currency: 'USD', amount: 10_000 },
        urls: { ...URLS, notify: hook.url },
      } as never);
      await payOnPage(out.redirectUrl, '4111111111111111', YEAR);
      for (let i = 1; i <= 5; i++)
        await h.client.foreign.refund(out.reference, { currency: 'USD', amount: 100 * i } as never);
      await waitFor(() => hook.received.length >= 6);
      await h.advance(3 * HOUR);
      assert.deepEqual(
        hook.received.map((r) => r.json.amount),
        [10_000, -100, -200, -300, -400, -500],
      );
    } finally {
      await h.close();
      await hook.close();
    }
  });
});
