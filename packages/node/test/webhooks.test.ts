import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  GatewayClient,
  WebhookVerificationError,
  verifyPaymentNotification,
  verifyPayoutWebhook,
  webhookHash,
} from '../src/index.js';
import { FakeGateway, SECRET, TOKEN, samples } from './support/fake-gateway.js';

// MD5 computed here with node:crypto directly, independent of webhookHash.
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

const merchantSecret = 'merchant-secret';
const notification = {
  success: true,
  amount: 10000,
  currency: 'ZAR',
  paymentReference: 'PG-1',
  merchantReference: 'order-1001',
  paymentDate: '2026-11-23 09:00:00',
  status: 'SETTLED',
  date: '2026-11-23T09:00:00.000Z',
  hash: md5(`PG-1${merchantSecret}`),
  bin: '411111XXXXXX1111',
};
const payout = {
  payoutDate: '2026-11-23 09:00:00',
  totalAmount: 10000,
  totalFees: 250,
  netTotal: 9750,
  payoutId: 77,
  currency: 'ZAR',
  hash: md5(`77${merchantSecret}`),
  merchantName: 'Shop',
  merchantId: 1,
  channelId: 3,
  transactions: [
    {
      merchantReference: 'order-1001',
      amount: 10000,
      fees: 250,
      feesVat: 288,
      netAmount: 9712,
      currency: 'ZAR',
      paymentReference: 'PG-1',
      status: 'SETTLED',
      consumerEmail: null,
      consumerFirstname: null,
      consumerSurname: null,
      threeDomainSecure: 'USED',
      dateCreated: '2026-11-20 10:00:00',
      dateExecuted: '2026-11-20 10:00:01',
      paymentMethod: 'CC',
    },
  ],
};

function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof WebhookVerificationError, String(err));
    return err.reason;
  }
  assert.fail('expected a WebhookVerificationError');
}

describe('payment notification', () => {
  it('valid: returns the typed payload, from a string or a Buffer', () => {
    const raw = JSON.stringify(notification);
    assert.equal(verifyPaymentNotification(raw, merchantSecret).paymentReference, 'PG-1');
    assert.equal(verifyPaymentNotification(Buffer.from(raw), merchantSecret).amount, 10000);
    assert.equal(webhookHash('PG-1', merchantSecret), notification.hash);
  });
  it('accepts an upper-case hash', () => {
    const raw = JSON.stringify({ ...notification, hash: notification.hash.toUpperCase() });
    assert.equal(verifyPaymentNotification(raw, merchantSecret).status, 'SETTLED');
  });
  it('forged: a made-up hash is refused with 401', () => {
    const raw = JSON.stringify({ ...notification, hash: md5('PG-1guess') });
    assert.equal(
      reason(() => verifyPaymentNotification(raw, merchantSecret)),
      'hash-mismatch',
    );
    try {
      verifyPaymentNotification(raw, merchantSecret);
    } catch (err) {
      assert.equal((err as WebhookVerificationError).statusCode, 401);
    }
  });
  it('forged: the hash of another payment is refused for this one', () => {
    const raw = JSON.stringify({ ...notification, paymentReference: 'PG-2' });
    assert.equal(
      reason(() => verifyPaymentNotification(raw, merchantSecret)),
      'hash-mismatch',
    );
  });
  it('wrong secret is refused', () => {
    assert.equal(
      reason(() => verifyPaymentNotification(JSON.stringify(notification), 'other-secret')),
      'hash-mismatch',
    );
  });
  it('tampered amount: the hash covers only the reference, so confirmNotification checks the amount with the gateway', async () => {
    const tampered = { ...notification, amount: 1 };
    // The MD5 scheme cannot see the change; this documents why the lookup below exists.
    const parsed = verifyPaymentNotification(JSON.stringify(tampered), merchantSecret);
    const gateway = await new FakeGateway().start();
    try {
      gateway.on('GET', '/pg/api/v2/payment/PG-1', { json: samples.lookup });
      const client = new GatewayClient({ token: TOKEN, secret: SECRET, baseUrl: gateway.url });
      await assert.rejects(
        client.confirmNotification(parsed),
        (e: unknown) =>
          e instanceof WebhookVerificationError &&
          e.reason === 'record-mismatch' &&
          e.statusCode === 401 &&
          /says 1 ZAR, the gateway's record says 10000 ZAR/.test(e.message),
      );
      const genuine = await client.confirmNotification(
        verifyPaymentNotification(JSON.stringify(notification), merchantSecret),
      );
      assert.equal(genuine.amount, 10000);
    } finally {
      await gateway.close();
    }
  });
  it('a SETTLED notification for a payment the gateway has as FAILED or NEW is refused', async () => {
    const gateway = await new FakeGateway().start();
    try {
      const client = new GatewayClient({ token: TOKEN, secret: SECRET, baseUrl: gateway.url });
      const parsed = verifyPaymentNotification(JSON.stringify(notification), merchantSecret);
      assert.equal(parsed.status, 'SETTLED');
      for (const status of ['FAILED', 'NEW', 'THREE_D_SECURE']) {
        gateway.on('GET', '/pg/api/v2/payment/PG-1', { json: { ...samples.lookup, status } });
        await assert.rejects(
          client.confirmNotification(parsed),
          (e: unknown) =>
            e instanceof WebhookVerificationError &&
            e.reason === 'record-mismatch' &&
            new RegExp(`says SETTLED, the gateway's record says ${status}`).test(e.message),
        );
      }
      gateway.on('GET', '/pg/api/v2/payment/PG-1', {
        json: { ...samples.lookup, status: 'AUTHORIZED' },
      });
      assert.equal((await client.confirmNotification(parsed)).status, 'AUTHORIZED');
    } finally {
      await gateway.close();
    }
  });
  it("super merchant: the sub-merchant's secret is resolved from the payload", () => {
    const secrets: Record<string, string> = { 'order-1001': 'sub-merchant-secret' };
    const sub = { ...notification, hash: md5('PG-1sub-merchant-secret') };
    const resolve = (n: { merchantReference?: string | null | undefined }) =>
      secrets[n.merchantReference ?? ''];
    assert.equal(verifyPaymentNotification(JSON.stringify(sub), resolve).paymentReference, 'PG-1');
    assert.equal(
      reason(() => verifyPaymentNotification(JSON.stringify(sub), merchantSecret)),
      'hash-mismatch',
    );
    assert.equal(
      reason(() =>
        verifyPaymentNotification(JSON.stringify({ ...sub, merchantReference: 'x' }), resolve),
      ),
      'unknown-merchant',
    );
  });
  it('a parsed object instead of the raw body is refused with a hint', () => {
    assert.throws(
      () => verifyPaymentNotification(notification as never, merchantSecret),
      /raw request body/,
    );
    assert.equal(
      reason(() => verifyPaymentNotification(notification as never, merchantSecret)),
      'not-raw',
    );
  });
  it('malformed JSON and a payload missing fields are 400s', () => {
    assert.equal(
      reason(() => verifyPaymentNotification('{"success":', merchantSecret)),
      'malformed',
    );
    const { hash: _h, ...noHash } = notification;
    assert.equal(
      reason(() => verifyPaymentNotification(JSON.stringify(noHash), merchantSecret)),
      'invalid-payload',
    );
  });
});

describe('payout webhook', () => {
  it('valid with the merchant own secret', () => {
    assert.equal(verifyPayoutWebhook(JSON.stringify(payout), merchantSecret).netTotal, 9750);
  });
  it('forged, wrong secret, tampered payoutId', () => {
    assert.equal(
      reason(() =>
        verifyPayoutWebhook(JSON.stringify({ ...payout, hash: md5('77x') }), merchantSecret),
      ),
      'hash-mismatch',
    );
    assert.equal(
      reason(() => verifyPayoutWebhook(JSON.stringify(payout), 'sub-merchant-secret')),
      'hash-mismatch',
    );
    assert.equal(
      reason(() =>
        verifyPayoutWebhook(JSON.stringify({ ...payout, payoutId: 78 }), merchantSecret),
      ),
      'hash-mismatch',
    );
  });
  it('refuses a parsed object', () => {
    assert.equal(
      reason(() => verifyPayoutWebhook(payout as never, merchantSecret)),
      'not-raw',
    );
  });
});

describe('secret resolver', () => {
  it('must be synchronous', () => {
    const asyncResolver = (() => Promise.resolve(merchantSecret)) as never;
    assert.throws(
      () => verifyPaymentNotification(JSON.stringify(notification), asyncResolver),
      /synchronously/,
    );
  });
});
