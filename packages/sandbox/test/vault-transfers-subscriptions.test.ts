/* eslint-disable @typescript-eslint/no-explicit-any -- answers are read field by field */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GatewayError, RequestRejectedError } from '@pg-checkout/node';
import {
  assertRefused,
  card,
  createBody,
  ref,
  startHarness,
  YEAR,
  type Harness,
} from './helpers/sandbox.js';

const DAY = 24 * 60 * 60 * 1000;

describe('card vault, recurring payments, subscriptions and transfers', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it('registers, looks up by number, token and transaction, pays by token, and unregisters', async () => {
    const { token } = await h.client.cards.register(card('5555555555554444') as never);
    assert.match(token, /^[0-9a-f]{32}$/);
    const byNumber: any = await h.client.cards.lookup({ cardNumber: '5555555555554444' } as never);
    assert.equal(byNumber.number, '555555XXXXXX4444');
    assert.equal(byNumber.token, token);
    assert.equal(((await h.client.cards.lookup({ token } as never)) as any).type, 'mastercard');
    const paid = await h.client.payments.create({
      ...createBody('5555555555554444'),
      creditCard: { token },
    } as never);
    assert.equal(paid.kind, 'approved');
    assert.equal(
      ((await h.client.cards.lookup({ transactionReference: paid.reference } as never)) as any)
        .token,
      token,
    );
    const expired = await h.raw(
      'POST',
      '/pg/api/v2/payment/create',
      JSON.stringify(
        createBody('5555555555554444', {
          creditCard: card('5555555555554444', { expiryYear: 2020 }),
        }),
      ),
    );
    assert.equal(expired.json.originalErrorCode, 'fin054');
    // An old expiry used once must not expire the stored card.
    const again = await h.client.payments.create({
      ...createBody('5555555555554444'),
      creditCard: { token },
    } as never);
    assert.equal(again.kind, 'approved');
    await h.client.cards.unregister(token);
    await assert.rejects(
      h.client.cards.lookup({ token } as never),
      (err: unknown) => err instanceof RequestRejectedError && err.originalErrorCode === 'fin025',
    );
    await assert.rejects(h.client.cards.unregister(token), GatewayError);
    const two = await h.raw(
      'POST',
      '/pg/api/v2/card/lookup',
      JSON.stringify({ token: 'a', cardNumber: '4111111111111111' }),
    );
    assertRefused(two, 'fin030');
  });

  it('refuses to store an expired or Luhn-invalid card', async () => {
    const res = await h.raw(
      'POST',
      '/pg/api/v2/card/register',
      JSON.stringify({ creditCard: card('4111111111111112') }),
    );
    // A card the processor would decline is a decline (fin014), not a refusal of the request.
    assert.equal(res.status, 200);
    assert.equal(res.json.success, false);
    assert.equal(res.json.code, -1);
    assert.equal(res.json.originalErrorCode, 'fin014');
  });

  it('recurring: the first needs a cvv, later ones go without or with 000, by initialRef or the stored first reference', async () => {
    const { token } = await h.client.cards.register(card('4550270020557018') as never);
    const noCvv = await h.raw(
      'POST',
      '/pg/api/v2/payment/create',
      JSON.stringify({ ...createBody('4550270020557018'), creditCard: { token }, recurring: true }),
    );
    assertRefused(noCvv, 'fin030');
    assert.match(noCvv.json.message, /first recurring/);
    const first = await h.client.payments.create({
      ...createBody('4550270020557018'),
      creditCard: { token, cvv: '123' },
      recurring: true,
    } as never);
    assert.equal(first.kind, 'approved');
    // No browser fields: a subsequent recurring payment is merchant-initiated.
    const later = await h.client.payments.create({
      creditCard: { token },
      transaction: { reference: ref('later'), currency: 'ZAR', amount: 100 },
      recurring: true,
    } as never);
    assert.equal(later.kind, 'approved');
    const withInitial = await h.client.payments.create({
      ...createBody('4550270020557018'),
      creditCard: { token, cvv: '000' },
      recurring: true,
      initialRef: first.reference,
    } as never);
    assert.equal(withInitial.kind, 'approved');
    const byTransaction = await h.client.payments.create({
      ...createBody('4550270020557018'),
      creditCard: { transactionReference: first.reference },
    } as never);
    assert.equal(byTransaction.kind, 'approved');
  });

  it('subscriptions bill every interval as sandbox time passes; edit links a new card; cancel stops billing', async () => {
    const subRef = ref('sub');
    const out = await h.client.payments.create({
      ...createBody('5471209024048015', { autoExecute: true }),
      subscription: {
        reference: subRef,
        interval: 'DAILY',
        trialDays: 1,
        firstname: 'Ann',
        lastname: 'Lee',
        email: 'ann@example.test',
      },
    } as never);
    assert.equal(out.kind, 'approved');
    await h.advance(3 * DAY + 1_000);
    let sub = await h.inspect(`/_sandbox/subscriptions/${subRef}`);
    assert.equal(sub.status, 'ACTIVE');
    assert.equal(sub.charges.length, 2);
    assert.equal((await h.client.lookups.payment(sub.charges[0])).status, 'SETTLED');
    assert.equal(
      (
        await h.client.subscriptions.edit(
          subRef,
          card('2223003122003222', { expiryYear: YEAR + 1 }) as never,
        )
      ).success,
      true,
    );
    assert.equal((await h.client.subscriptions.cancel(subRef)).success, true);
    await h.advance(3 * DAY);
    sub = await h.inspect(`/_sandbox/subscriptions/${subRef}`);
    assert.equal(sub.charges.length, 2);
    assert.equal(sub.card.number, '222300XXXXXX3222');
    await assert.rejects(h.client.subscriptions.cancel(subRef), GatewayError);
    await assert.rejects(
      h.client.subscriptions.cancel('no-such-subscription'),
      (err: unknown) => err instanceof RequestRejectedError && err.originalErrorCode === 'fin025',
    );
  });

  it('transfers: merchants fixture, create, 90-day outstanding list, cancel before the date, executed after it', async () => {
    const merchants = await h.client.transfers.merchants();
    assert.deepEqual(
      merchants.map((m: any) => m.id),
      [1001, 1002],
    );
    const now = (await h.inspect('/_sandbox/clock')).now as number;
    const date = new Date(now + 2 * DAY).toISOString();
    const request = (reference: string, extra: Record<string, unknown> = {}) => ({
      reference,
      fromMerchant: {
        merchantId: 1000,
        merchantReference: ref('from'),
        currency: 'ZAR',
        amount: 3_000,
        transferDate: date,
      },
      toMerchants: [
        {
          merchantId: 1001,
          merchantReference: ref('to'),
          currency: 'ZAR',
          amount: 1_000,
          transferDate: date,
        },
        {
          merchantId: 1002,
          merchantReference: ref('to'),
          currency: 'ZAR',
          amount: 2_000,
          transferDate: date,
        },
      ],
      ...extra,
    });
    const created: any = await h.client.transfers.create(request(ref('t')) as never);
    assert.equal(created.fromMerchantId, 1000);
    assert.equal(created.transfers.length, 2);
    assert.equal(typeof created.transfers[0].transferDate, 'number');
    const listed = await h.client.transfers.list();
    assert.ok(
      listed.some(
        (t: any) => t.reference === created.transfers[0].reference && t.suspended === true,
      ),
    );
    assert.equal((await h.client.transfers.cancel(created.transfers[0].reference)).success, true);
    await h.advance(2 * DAY + 1_000);
    assert.equal(
      (await h.client.lookups.payment(created.transfers[0].reference)).status,
      'CANCELLED',
    );
    assert.equal(
      (await h.client.lookups.payment(created.transfers[1].reference)).status,
      'SETTLED',
    );
    await assert.rejects(h.client.transfers.cancel(created.transfers[1].reference), GatewayError);

    const forex = request(ref('t'));
    forex.fromMerchant.currency = 'USD';
    const res = await h.raw('POST', '/pg/api/v2/transfer/create', JSON.stringify(forex));
    assertRefused(res, 'fin030');
    assert.match(res.json.message, /ZAR/);
    const wrongSum = request(ref('t'));
    wrongSum.fromMerchant.amount = 2_999;
    assertRefused(
      await h.raw('POST', '/pg/api/v2/transfer/create', JSON.stringify(wrongSum)),
      'fin030',
    );
    const unknown = await h.raw(
      'POST',
      '/pg/api/v2/transfer/cancel',
      JSON.stringify({ reference: 'nope' }),
    );
    assertRefused(unknown, 'fin025');
  });
});
