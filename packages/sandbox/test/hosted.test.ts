/* eslint-disable @typescript-eslint/no-explicit-any -- answers are read field by field */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { GatewayError, verifyPaymentNotification, verifyPayoutWebhook } from '@pg-checkout/node';
import { hiddenFields, postForm } from './helpers/forms.js';
import { startReceiver, waitFor } from './helpers/receiver.js';
import { assertRefused, ref, startHarness, YEAR, type Harness } from './helpers/sandbox.js';

const DAY = 24 * 60 * 60 * 1000;
const md5 = (s: string): string => createHash('md5').update(s).digest('hex');
const day = (offsetDays: number, now: number): string =>
  new Date(now + offsetDays * DAY).toISOString().slice(0, 10);

describe('hosted payment pages, EFT and the notify webhook', () => {
  let h: Harness;
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    h = await startHarness();
    hook = await startReceiver();
  });
  after(async () => {
    await h.close();
    await hook.close();
  });
  beforeEach(() => {
    hook.received.length = 0;
    hook.setStatuses([200]);
  });

  const urls = () => ({
    success: 'http://shop.test/success',
    cancel: 'http://shop.test/cancel',
    error: 'http://shop.test/error',
    notify: hook.url,
  });

  const foreign = (extra: Record<string, unknown> = {}) =>
    h.client.foreign.create({
      transaction: { reference: ref('v3'), currency: 'USD', amount: 10_000 },
      urls: urls(),
      ...extra,
    } as never);

  async function payWithCard(redirectUrl: string, number: string, cvv = '123') {
    const page = await fetch(redirectUrl);
    const html = await page.text();
    assert.match(html, /autocomplete="cc-number"/);
    return postForm(redirectUrl, {
      number,
      cardHolder: 'Test Shopper',
      expiryMonth: '12',
      expiryYear: String(YEAR),
      cvv,
      action: 'pay',
    });
  }

  it('v3 create -> hosted page -> success redirect, SETTLED, notify webhook with MD5 hash and masked bin', async () => {
    const out = await foreign();
    assert.match(out.redirectUrl, /\/pay\//);
    const paid = await payWithCard(out.redirectUrl, '4111 1111 1111 1111');
    assert.equal(paid.status, 303);
    assert.equal(paid.location, 'http://shop.test/success');
    assert.equal((await h.client.lookups.payment(out.reference)).status, 'SETTLED');
    const got = await waitFor(() => hook.received[0]);
    const payload = verifyPaymentNotification(got.body, h.sandbox.secret) as any;
    assert.equal(payload.hash, md5(out.reference + h.sandbox.secret));
    assert.equal(payload.status, 'SETTLED');
    assert.equal(payload.bin, '411111XXXXXX1111');
    assert.doesNotMatch(got.body, /4111111111111111/);
    const second = await fetch(out.redirectUrl);
    assert.equal(second.status, 409);
  });

  it('v3 create refuses missing urls with code 3 and answers code 19 without a payment page', async () => {
    const noUrls = await h.raw(
      'POST',
      '/pg/api/v3/payment/create',
      JSON.stringify({ transaction: { reference: ref(), currency: 'USD', amount: 100 } }),
    );
    assert.equal(noUrls.json.code, 3);
    assert.equal(noUrls.json.originalErrorCode, '');
    await h.inspect('/_sandbox/settings', { paymentPageEnabled: false });
    try {
      await assert.rejects(
        foreign(),
        (err: unknown) => err instanceof GatewayError && err.code === 19,
      );
    } finally {
      await h.inspect('/_sandbox/settings', { paymentPageEnabled: true });
    }
  });

  it('v3 authorize, then v3 execute and v3 refund; v2 endpoints refuse a v3 payment', async () => {
    const out = await foreign({ authorize: true });
    await payWithCard(out.redirectUrl, '5555555555554444');
    assert.equal((await h.client.lookups.payment(out.reference)).status, 'AUTHORIZED');
    await assert.rejects(h.client.payments.execute(out.reference), GatewayError);
    assert.equal((await h.client.foreign.execute(out.reference)).kind, 'executed');
    assert.equal(
      (await h.client.foreign.refund(out.reference, { currency: 'USD', amount: 2_000 })).kind,
      'refunded',
    );
    assert.equal((await h.client.foreign.refund(out.reference)).kind, 'refunded');
    assert.equal((await h.client.lookups.payment(out.reference)).status, 'REFUNDED');
    const partial = await foreign({ authorize: true });
    await payWithCard(partial.redirectUrl, '5555555555554444');
    assert.equal(
      (await h.client.foreign.execute(partial.reference, { currency: 'USD', amount: 6_000 })).kind,
      'executed',
    );
    assert.equal((await h.inspect(`/_sandbox/transactions/${partial.reference}`)).settled, 6_000);
    const reversed = await foreign({ authorize: true });
    await payWithCard(reversed.redirectUrl, '5555555555554444');
    assert.equal(
      (await h.client.foreign.execute(reversed.reference, { currency: 'USD', amount: 0 })).kind,
      'reversed',
    );
  });

  it('v3 edit, add transfer and cancel transfer before the transaction date; refused on the day', async () => {
    const now = (await h.inspect('/_sandbox/clock')).now as number;
    const out = await foreign({ transactionDate: day(5, now) });
    const transfer = (amount: number) => ({
      reference: ref('tr'),
      toMerchants: [{ merchantId: 1001, merchantReference: ref('aff'), currency: 'USD', amount }],
    });
    assert.equal(
      (await h.client.foreign.edit(out.reference, { description: 'Trip', pax: 2 } as never))
        .success,
      true,
    );
    assert.equal(
      (await h.client.foreign.addTransfer(out.reference, transfer(5_000) as never)).success,
      true,
    );
    const over = await h.raw(
      'POST',
      `/pg/api/v3/payment/${out.reference}/transfer/create`,
      JSON.stringify({ transfer: transfer(4_001) }),
    );
    assertRefused(over, 'fin030');
    assert.match(over.json.message, /90%/);
    assert.equal((await h.client.foreign.cancelTransfer(out.reference)).success, true);
    const none = await h.raw('GET', `/pg/api/v3/payment/${out.reference}/transfer/cancel`);
    assertRefused(none, undefined, 1);
    const today = await foreign();
    const late = await h.raw(
      'POST',
      `/pg/api/v3/payment/${today.reference}/edit`,
      JSON.stringify({ description: 'x' }),
    );
    assertRefused(late, undefined, 1);
    assert.equal(late.json.reference, today.reference);
  });

  it('prepared transfers run when the payment succeeds', async () => {
    const affiliateRef = ref('aff');
    const out = await foreign({
      transfer: {
        reference: ref('tr'),
        toMerchants: [
          { merchantId: 1002, merchantReference: affiliateRef, currency: 'USD', amount: 9_000 },
        ],
      },
    });
    await payWithCard(out.redirectUrl, '4111111111111111');
    const t = await h.client.lookups.byMerchantReference(affiliateRef);
    assert.equal(t.amount, 9_000);
    assert.equal(t.status, 'SETTLED');
  });

  it('redirect create: unknown pageUrlKey is code 19; hold authorizes and reverses after 7 days; redirect lookup', async () => {
    const base = {
      transaction: { reference: ref('r'), currency: 'ZAR', amount: 5_000 },
      consumer: { name: 'Ann', surname: 'Lee', email: 'ann@example.test' },
      urls: urls(),
    };
    await assert.rejects(
      h.client.redirects.create({ ...base, pageUrlKey: 'nope' } as never),
      (err: unknown) => err instanceof GatewayError && err.code === 19,
    );
    const out = await h.client.redirects.create({ ...base, hold: true } as never);
    await payWithCard(out.redirectUrl, '4111111111111111');
    const looked = await h.client.lookups.redirect(out.reference);
    assert.equal(looked.status, 'AUTHORIZED');
    await h.advance(7 * DAY + 1_000);
    assert.equal((await h.client.lookups.redirect(out.reference)).status, 'REVERSED');
  });

  it('a recurring redirect payment can be charged again by paymentReference', async () => {
    const out = await h.client.redirects.create({
      transaction: { reference: ref('rec'), currency: 'ZAR', amount: 1_500 },
      consumer: { name: 'Ann', surname: 'Lee', email: 'ann@example.test' },
      urls: urls(),
      recurring: true,
    } as never);
    await payWithCard(out.redirectUrl, '5555555555554444');
    const again = await h.client.payments.create({
      creditCard: { paymentReference: out.reference },
      transaction: { reference: ref('rec2'), currency: 'ZAR', amount: 1_500 },
      recurring: true,
    } as never);
    assert.equal(again.kind, 'approved');
    const notRecurring = await foreign();
    const res = await h.raw(
      'POST',
      '/pg/api/v2/payment/create',
      JSON.stringify({
        creditCard: { paymentReference: notRecurring.reference },
        transaction: { reference: ref('rec3'), currency: 'ZAR', amount: 100 },
      }),
    );
    assertRefused(res, 'fin030');
    assert.match(res.json.message, /recurring/);
  });

  it('the hosted page runs 3-D Secure for a 3-D Secure card and returns to success', async () => {
    const out = await foreign();
    const toAcs = await payWithCard(out.redirectUrl, '4000000000003097');
    assert.equal(toAcs.status, 200);
    const fields = hiddenFields(toAcs.text);
    const acs = await postForm(`${h.sandbox.url}/_acs/v1`, fields);
    const answer = await postForm(`${h.sandbox.url}/_acs/v1/answer`, {
      ...hiddenFields(acs.text),
      otp: '1234',
      action: 'submit',
    });
    const back = hiddenFields(answer.text);
    const done = await postForm(fields.TermUrl!, back);
    assert.equal(done.status, 303);
    assert.equal(done.location, 'http://shop.test/success');
  });

  it('threeDSecure: false on redirect create forces 3-D Secure off', async () => {
    const out = await h.client.redirects.create({
      transaction: { reference: ref('no3ds'), currency: 'ZAR', amount: 700 },
      consumer: { name: 'Ann', surname: 'Lee', email: 'ann@example.test' },
      urls: urls(),
      threeDSecure: false,
    } as never);
    const paid = await payWithCard(out.redirectUrl, '4000000000003097');
    assert.equal(paid.location, 'http://shop.test/success');
  });

  it('a declined card goes to the error URL; failed notifications follow the setting', async () => {
    await h.inspect('/_sandbox/settings', { notifyFailed: true });
    try {
      const out = await foreign();
      const res = await payWithCard(out.redirectUrl, '4000000000000002');
      assert.equal(res.location, 'http://shop.test/error');
      const got = await waitFor(() =>
        hook.received.find((r) => r.json.paymentReference === out.reference),
      );
      assert.equal(got.json.status, 'FAILED');
      assert.equal(got.json.success, false);
    } finally {
      await h.inspect('/_sandbox/settings', { notifyFailed: false });
    }
  });

  it('bad card input re-renders the page with the problem; Cancel returns to the cancel URL', async () => {
    const out = await foreign();
    const bad = await postForm(out.redirectUrl, {
      number: '4111',
      cardHolder: 'x',
      expiryMonth: '12',
      expiryYear: String(YEAR),
      cvv: '123',
      action: 'pay',
    });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /role="alert"/);
    const cancel = await postForm(out.redirectUrl, { action: 'cancel' });
    assert.equal(cancel.location, 'http://shop.test/cancel');
    assert.equal((await h.client.lookups.payment(out.reference)).status, 'CANCELLED');
  });

  it('instant EFT: bank choice page; a pending bank pays an hour later, notified NEW then SETTLED', async () => {
    await h.inspect('/_sandbox/settings', { notifyPending: true });
    try {
      const eft = () =>
        h.client.redirects.createEft({
          transaction: { reference: ref('eft'), currency: 'ZAR', amount: 2_500 },
          consumer: { name: 'Ann', surname: 'Lee', email: 'ann@example.test' },
          urls: {
            success: 'http://shop.test/success',
            cancel: 'http://shop.test/cancel',
            error: 'http://shop.test/error',
          },
        } as never);
      const fast = await eft();
      const page = await (await fetch(fast.redirectUrl)).text();
      assert.match(page, /name="bank"/);
      assert.equal(
        (await postForm(fast.redirectUrl, { bank: 'sandbox-bank', action: 'pay' })).location,
        'http://shop.test/success',
      );
      assert.equal((await h.client.lookups.payment(fast.reference)).status, 'SETTLED');
      const slow = await eft();
      await postForm(slow.redirectUrl, { bank: 'slow-bank', action: 'pay' });
      assert.equal((await h.client.lookups.payment(slow.reference)).status, 'NEW');
      await h.advance(60 * 60 * 1000);
      assert.equal((await h.client.lookups.payment(slow.reference)).status, 'SETTLED');
      const declined = await eft();
      assert.equal(
        (await postForm(declined.redirectUrl, { bank: 'declining-bank', action: 'pay' })).location,
        'http://shop.test/error',
      );
    } finally {
      await h.inspect('/_sandbox/settings', { notifyPending: false });
    }
  });

  it('retries a non-2xx notify on the sandbox clock until it is answered 2xx', async () => {
    hook.setStatuses([500, 503, 200]);
    const out = await foreign();
    await payWithCard(out.redirectUrl, '4111111111111111');
    await waitFor(() => hook.received.length === 1 || undefined);
    await h.advance(60_000);
    await h.advance(2 * 60_000);
    assert.equal(hook.received.length, 3);
    const record = await h.inspect(`/_sandbox/transactions/${out.reference}`);
    const delivery = record.webhooks[0];
    assert.equal(delivery.state, 'delivered');
    assert.deepEqual(
      delivery.attempts.map((a: any) => a.status),
      [500, 503, 200],
    );
  });

  it('gives up after 20 retries within three days', async () => {
    hook.setStatuses([500]);
    const out = await foreign();
    await payWithCard(out.redirectUrl, '4111111111111111');
    await waitFor(() => hook.received.length === 1 || undefined);
    await h.advance(4 * DAY);
    const record = await h.inspect(`/_sandbox/transactions/${out.reference}`);
    const delivery = record.webhooks[0];
    assert.equal(delivery.state, 'failed');
    assert.equal(delivery.attempts.length, 21);
    assert.ok(delivery.attempts[20].at - delivery.attempts[0].at <= 3 * DAY);
  });

  it('notifies refunds when the setting is on, and a manual refund completion always', async () => {
    const out = await foreign();
    await payWithCard(out.redirectUrl, '4111111111111111');
    await waitFor(() => hook.received[0]);
    await h.client.foreign.refund(out.reference, { currency: 'USD', amount: 1_007 });
    await h.advance(DAY);
    const refunded = await waitFor(() => hook.received.find((r) => r.json.status === 'REFUNDED'));
    assert.equal(refunded.json.amount, -1_007);
  });
  it('payout webhook from the inspection API: MD5(payoutId + secret), settled transactions, settlement in lookups', async () => {
    const out = await foreign();
    await payWithCard(out.redirectUrl, '4111111111111111');
    await waitFor(() => hook.received[0]);
    hook.received.length = 0;
    const trigger = await h.inspect('/_sandbox/payouts', { url: hook.url });
    assert.equal(trigger.success, true);
    const got = await waitFor(() =>
      hook.received.find((r) => r.json.payoutId === trigger.payoutId),
    );
    const payout = verifyPayoutWebhook(got.body, h.sandbox.secret) as any;
    assert.equal(payout.hash, md5(String(trigger.payoutId) + h.sandbox.secret));
    assert.ok(payout.transactions.some((t: any) => t.paymentReference === out.reference));
    assert.equal(payout.netTotal, payout.totalAmount - payout.totalFees);
    const record = await h.client.lookups.payment(out.reference);
    assert.equal(record.settlementId, trigger.payoutId);
    const bad = await h.inspect('/_sandbox/payouts', { url: 'not a url' });
    assert.equal(bad.status, 400);
  });
  it('allowMultiCurrencyPurchase lets the shopper pick the currency shown and paid in', async () => {
    const out = await foreign({ allowMultiCurrencyPurchase: true });
    const html = await (await fetch(out.redirectUrl)).text();
    assert.match(html, /<select id="payCurrency" name="payCurrency">/);
    assert.match(html, /92\.00 EUR/);
    await postForm(out.redirectUrl, {
      payCurrency: 'EUR',
      number: '4111111111111111',
      cardHolder: 'A',
      expiryMonth: '12',
      expiryYear: String(YEAR),
      cvv: '123',
      action: 'pay',
    });
    const record = await h.inspect(`/_sandbox/transactions/${out.reference}`);
    assert.equal(record.status, 'SETTLED');
    assert.equal(record.displayCurrency, 'EUR');
    const shown = await foreign({
      transaction: { reference: ref('dc'), currency: 'USD', amount: 9_200, displayCurrency: 'EUR' },
    });
    // The amount is in the display currency; divided by the rate (0.92 EUR per USD) it is the charged amount.
    assert.equal((await h.client.lookups.payment(shown.reference)).amount, 10_000);
  });
});
