import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CardDeclinedError,
  DuplicateReferenceError,
  GatewayError,
  RequestRejectedError,
} from '@pg-checkout/node';
import {
  assertRefused,
  card,
  createBody,
  ref,
  startHarness,
  type Harness,
} from './helpers/sandbox.js';

const DAY = 24 * 60 * 60 * 1000;

describe('card payments (v2)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  const create = (number: string, extra: Record<string, unknown> = {}) =>
    h.client.payments.create(createBody(number, extra) as never);

  it('approves every approving test card, authorize only by default', async () => {
    for (const number of [
      '4111111111111111',
      '4550270020557018',
      '5555555555554444',
      '5471209024048015',
      '2223003122003222',
      '378282246310005',
      '30569309025904',
      '4242424242424242',
    ]) {
      const out = await create(number);
      assert.equal(out.kind, 'approved', number);
      const record = await h.inspect(`/_sandbox/transactions/${out.reference}`);
      assert.equal(record.status, 'AUTHORIZED');
      assert.equal(
        record.card.number,
        `${number.slice(0, 6)}${'X'.repeat(number.length - 10)}${number.slice(-4)}`,
      );
    }
  });

  it('settles at once with autoExecute', async () => {
    const out = await create('4111111111111111', { autoExecute: true });
    assert.equal((await h.client.lookups.payment(out.reference)).status, 'SETTLED');
  });

  it('declines with the documented codes', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['4000000000000002', {}, 'fin005'],
      ['4000000000009995', {}, 'fin051'],
      ['4111111111111112', {}, 'fin014'],
      ['4111111111111111', { expiryYear: 2020 }, 'fin054'],
    ];
    for (const [number, cardExtra, fin] of cases) {
      const body = createBody(number, { creditCard: card(number, cardExtra) });
      await assert.rejects(h.client.payments.create(body as never), (err: unknown) => {
        assert.ok(err instanceof CardDeclinedError, `${number} ${String(err)}`);
        assert.equal(err.code, -1);
        assert.equal(err.originalErrorCode, fin);
        return true;
      });
    }
  });

  it('refuses Visa payments without clientIp, screenWidth and screenHeight', async () => {
    const body = createBody('4111111111111111');
    delete body.clientIp;
    const res = await h.raw('POST', '/pg/api/v2/payment/create', JSON.stringify(body));
    assertRefused(res, 'fin030');
    assert.match(res.json.message, /clientIp/);
    const mc = createBody('5555555555554444');
    delete mc.clientIp;
    delete mc.screenWidth;
    delete mc.screenHeight;
    assert.equal(
      (await h.raw('POST', '/pg/api/v2/payment/create', JSON.stringify(mc))).json.success,
      true,
    );
  });

  it('names the problem on wrong types, long references and unknown references, never a 500', async () => {
    const numericCvv = createBody('4111111111111111');
    numericCvv.creditCard.cvv = 123;
    const stringAmount = createBody('4111111111111111');
    stringAmount.transaction.amount = '100';
    const longRef = createBody('4111111111111111');
    longRef.transaction.reference = 'r'.repeat(100);
    const leadingZero = '{"transaction":{"amount":0100}}';
    for (const [body, pattern] of [
      [JSON.stringify(numericCvv), /cvv/],
      [JSON.stringify(stringAmount), /amount/],
      [JSON.stringify(longRef), /reference/],
      [leadingZero, /JSON/],
      ['[]', /object/],
      ['', /empty body/],
    ] as const) {
      const res = await h.raw('POST', '/pg/api/v2/payment/create', body);
      assertRefused(res, 'fin030');
      assert.match(res.json.message, pattern);
    }
    const unknown = await h.raw('GET', '/pg/api/v2/payment/NOPE/execute');
    assertRefused(unknown, 'fin025');
    assert.match(unknown.json.message, /NOPE/);
  });

  it('takes null optional fields as absent and ignores unknown fields', async () => {
    const body = createBody('5555555555554444', {
      autoExecute: null,
      subscription: null,
      somethingNew: { x: 1 },
    });
    const res = await h.raw('POST', '/pg/api/v2/payment/create', JSON.stringify(body));
    assert.equal(res.status, 200);
    assert.equal(res.json.code, 1);
  });

  it('refuses non-ZAR currencies on v2 create', async () => {
    const body = createBody('4111111111111111');
    body.transaction.currency = 'USD';
    const res = await h.raw('POST', '/pg/api/v2/payment/create', JSON.stringify(body));
    assertRefused(res, 'fin030');
    assert.match(res.json.message, /ZAR/);
  });

  it('executes fully, and refuses to execute twice with originalErrorCode fin058', async () => {
    // Spec, Execute payment: "Failure: success false, transactionDate, message, originalErrorCode, code."
    const out = await create('4111111111111111');
    const executed = await h.client.payments.execute(out.reference);
    assert.equal(executed.kind, 'executed');
    const twice = await h.raw('GET', `/pg/api/v2/payment/${out.reference}/execute`);
    assertRefused(twice, 'fin058');
    assert.match(twice.json.transactionDate, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    await assert.rejects(
      h.client.payments.execute(out.reference),
      (err: unknown) => err instanceof RequestRejectedError && err.originalErrorCode === 'fin058',
    );
    assert.equal((await h.client.lookups.payment(out.reference)).status, 'SETTLED');
  });

  it('executes partially, and reverses with amount 0', async () => {
    const partial = await create('4111111111111111');
    await h.client.payments.execute(partial.reference, { currency: 'ZAR', amount: 4_000 });
    assert.equal((await h.inspect(`/_sandbox/transactions/${partial.reference}`)).settled, 4_000);
    const reversed = await create('4111111111111111');
    const out = await h.client.payments.execute(reversed.reference, { currency: 'ZAR', amount: 0 });
    assert.equal(out.kind, 'reversed');
    assert.equal((await h.client.lookups.payment(reversed.reference)).status, 'REVERSED');
    const over = await create('4111111111111111');
    await assert.rejects(
      h.client.payments.execute(over.reference, { currency: 'ZAR', amount: 10_001 }),
      GatewayError,
    );
  });

  it('refunds fully and partially, refuses over-refunds and unsettled refunds', async () => {
    const unsettled = await create('4111111111111111');
    await assert.rejects(
      h.client.payments.refund(unsettled.reference),
      (err: unknown) => err instanceof RequestRejectedError && err.originalErrorCode === 'fin058',
    );

    const out = await create('4111111111111111', { autoExecute: true });
    const merchantRef = ref('refund');
    const first = await h.client.payments.refund(out.reference, {
      reference: merchantRef,
      currency: 'ZAR',
      amount: 3_000,
    });
    assert.equal(first.kind, 'refunded');
    const refundRecord = await h.client.lookups.byMerchantReference(merchantRef);
    assert.equal(refundRecord.amount, -3_000);
    assert.equal(refundRecord.status, 'REFUNDED');
    // Spec, Refund payment: "Other failure: success false, message, originalErrorCode, code -1."
    const over = await h.raw(
      'POST',
      `/pg/api/v2/payment/${out.reference}/refund`,
      JSON.stringify({ transaction: { currency: 'ZAR', amount: 7_001 } }),
    );
    assertRefused(over, 'fin058');
    assert.match(over.json.message, /more than/);
    await h.client.payments.refund(out.reference);
    assert.equal((await h.client.lookups.payment(out.reference)).status, 'REFUNDED');
    assertRefused(await h.raw('GET', `/pg/api/v2/payment/${out.reference}/refund`), 'fin058');
    await assert.rejects(h.client.payments.refund(out.reference), RequestRejectedError);
  });

  it('sends a refund ending in 07 cents to manual processing, which completes a day later', async () => {
    const out = await create('4111111111111111', { autoExecute: true });
    const merchantRef = ref('manual');
    const pending = await h.client.payments.refund(out.reference, {
      reference: merchantRef,
      currency: 'ZAR',
      amount: 1_007,
    });
    assert.equal(pending.kind, 'pending');
    const before = await h.client.lookups.byMerchantReference(merchantRef);
    assert.equal(before.status, 'NEW');
    assert.equal(before.pending, true);
    await h.advance(DAY);
    const after = await h.client.lookups.byMerchantReference(merchantRef);
    assert.equal(after.status, 'REFUNDED');
    assert.equal(after.pending, false);
  });

  it('lists by paymentReference only the transaction it names, never its refunds ("all given filters apply together")', async () => {
    const out = await create('4111111111111111', { autoExecute: true });
    const other = await create('4111111111111111', { autoExecute: true });
    await h.client.payments.refund(other.reference, { currency: 'ZAR', amount: 500 });
    const fullRef = ref('listed');
    const manualRef = ref('listed');
    await h.client.payments.refund(out.reference, {
      reference: fullRef,
      currency: 'ZAR',
      amount: 2_000,
    });
    await h.client.payments.refund(out.reference, {
      reference: manualRef,
      currency: 'ZAR',
      amount: 1_007,
    });
    const list = await h.client.lookups.list({ paymentReference: out.reference });
    assert.deepEqual(
      list.map((t) => [t.reference, t.amount, t.status, t.pending]),
      [[out.reference, 10_000, 'SETTLED', false]],
    );
    // A refund is its own transaction: its own reference lists it (negative, a manual one pending).
    for (const [merchantRef, row] of [
      [fullRef, [-2_000, 'REFUNDED', false]],
      [manualRef, [-1_007, 'NEW', true]],
    ] as const) {
      const refund = await h.client.lookups.byMerchantReference(merchantRef);
      const listed = await h.client.lookups.list({ paymentReference: refund.reference });
      assert.deepEqual(
        listed.map((t) => [t.amount, t.status, t.pending]),
        [row],
      );
    }
    const refundsOfIt = await h.client.lookups.list({
      paymentReference: out.reference,
      status: 'REFUNDED',
    });
    assert.deepEqual(refundsOfIt, []);
  });

  it('refunds many payments synchronously, item by item', async () => {
    const a = await create('4111111111111111', { autoExecute: true });
    const b = await create('4111111111111111');
    const res = await h.client.payments.refundMultiple({
      synchronous: true,
      transactions: [
        { serviceReference: a.reference, currency: 'ZAR', amount: 500 },
        { serviceReference: a.reference, currency: 'ZAR', amount: 207 },
        { serviceReference: b.reference, currency: 'ZAR', amount: 500 },
      ],
    } as never);
    const items = res.transactions as Record<string, unknown>[];
    assert.equal(items.length, 3);
    assert.equal(items[0]!.success, true);
    assert.equal(items[1]!.code, 7);
    assert.equal(items[2]!.success, false);
  });

  it('refunds asynchronously in the background, and refuses an empty list', async () => {
    const a = await create('4111111111111111', { autoExecute: true });
    const res = await h.raw(
      'POST',
      '/pg/api/v2/payment/refund/multiple',
      JSON.stringify({
        synchronous: false,
        transactions: [{ serviceReference: a.reference, currency: 'ZAR', amount: 10_000 }],
      }),
    );
    assert.equal(res.json.success, true);
    assert.equal(res.json.transactions, undefined);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal((await h.client.lookups.payment(a.reference)).status, 'REFUNDED');
    const empty = await h.raw(
      'POST',
      '/pg/api/v2/payment/refund/multiple',
      '{"synchronous":true,"transactions":[]}',
    );
    // Spec, Errors: "multiple refund with no transactions: success false, code -1" (no originalErrorCode).
    assertRefused(empty, undefined);
  });

  it('looks up by reference and merchant reference, and lists with every filter combined', async () => {
    const merchantRef = ref('list');
    const out = await h.client.payments.create({
      ...createBody('5555555555554444'),
      transaction: { reference: merchantRef, currency: 'ZAR', amount: 4_321 },
      autoExecute: true,
    } as never);
    const record = await h.client.lookups.payment(out.reference);
    assert.equal(record.amount, 4_321);
    assert.match(String(record.date), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(
      (await h.client.lookups.byMerchantReference(merchantRef)).reference,
      out.reference,
    );
    const now = (await h.inspect('/_sandbox/clock')).now as number;
    const list = await h.client.lookups.list({
      merchantReference: merchantRef,
      paymentReference: out.reference,
      fromDate: new Date(now - 60_000).toISOString(),
      toDate: new Date(now + 60_000).toISOString(),
      amount: 4_321,
      status: 'SETTLED',
      paymentMethod: 'CC',
      merchantId: 1000,
    } as never);
    assert.equal(list.length, 1);
    assert.equal(list[0]!.reference, out.reference);
    assert.equal(list[0]!.fees, 108);
    const none = await h.client.lookups.list({
      merchantReference: merchantRef,
      status: 'FAILED',
    } as never);
    assert.equal(none.length, 0);
    const bad = await h.raw('POST', '/pg/api/v2/payment/list', '{"fromDate":"yesterday"}');
    assertRefused(bad, 'fin030');
  });

  it('refuses a reused merchant reference with fin094 whatever became of the first payment', async () => {
    const merchantRef = ref('dup');
    const declined = createBody('4000000000000002', {
      transaction: { reference: merchantRef, currency: 'ZAR', amount: 100 },
    });
    const first = await h.raw('POST', '/pg/api/v2/payment/create', JSON.stringify(declined));
    assert.equal(first.json.originalErrorCode, 'fin005');
    const ok = createBody('4111111111111111', {
      transaction: { reference: merchantRef, currency: 'ZAR', amount: 100 },
    });
    const again = await h.raw('POST', '/pg/api/v2/payment/create', JSON.stringify(ok));
    assertRefused(again, 'fin094');
    assert.equal(again.json.reference, first.json.reference);
    assert.match(again.json.message, new RegExp(first.json.reference));
    await assert.rejects(
      h.client.payments.create(ok as never),
      (err: unknown) =>
        err instanceof DuplicateReferenceError &&
        err instanceof RequestRejectedError &&
        !(err instanceof CardDeclinedError) &&
        err.reference === first.json.reference,
    );
    const attempts = await h.inspect(`/_sandbox/transactions?merchantReference=${merchantRef}`);
    assert.deepEqual(
      attempts.transactions.map((t: { status: string }) => t.status),
      ['FAILED'],
    );
    assert.equal(
      (await h.client.lookups.byMerchantReference(merchantRef)).reference,
      first.json.reference,
    );
  });

  it('refuses a refund whose merchant reference is already used, keeping the lookup on the payment', async () => {
    const merchantRef = ref('taken');
    const out = await h.client.payments.create({
      ...createBody('4111111111111111'),
      transaction: { reference: merchantRef, currency: 'ZAR', amount: 1_000 },
      autoExecute: true,
    } as never);
    await assert.rejects(
      h.client.payments.refund(out.reference, {
        reference: merchantRef,
        currency: 'ZAR',
        amount: 100,
      }),
      DuplicateReferenceError,
    );
    const record = await h.client.lookups.byMerchantReference(merchantRef);
    assert.equal(record.reference, out.reference);
    assert.equal(record.status, 'SETTLED');
  });
});
