import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CreatePaymentRequest } from '@pg-checkout/protocol';
import { createSandbox, type FailureStatus, type Sandbox } from '@pg-checkout/sandbox';
import {
  CardDeclinedError,
  DuplicateReferenceError,
  GatewayClient,
  GatewayError,
  RequestRejectedError,
  ThreeDSecureFailedError,
} from '../src/index.js';

const YEAR = new Date().getUTCFullYear() + 2;
let seq = 0;
const ref = (prefix: string): string => `${prefix}-${process.pid}-${Date.now()}-${++seq}`;

function payment(number: string, extra: Partial<CreatePaymentRequest> = {}): CreatePaymentRequest {
  return {
    creditCard: {
      number,
      cardHolder: 'Jane Doe',
      expiryMonth: 12,
      expiryYear: YEAR,
      cvv: '123',
      type: number.startsWith('4') ? 'visa' : 'mastercard',
    },
    transaction: { reference: ref('order'), currency: 'ZAR', amount: 10_000 },
    clientIp: '203.0.113.7',
    screenWidth: '1280',
    screenHeight: '800',
    ...extra,
  };
}

/** Resolves with what the promise rejected with; fails the test when it fulfils. */
async function failureOf(promise: Promise<unknown>): Promise<GatewayError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  assert.ok('error' in outcome, `expected a failure, got ${JSON.stringify(outcome)}`);
  assert.ok(outcome.error instanceof GatewayError, String(outcome.error));
  return outcome.error;
}

// The real gateway's failure statuses are not in the spec: the client must read both the same way.
for (const failureStatus of ['200', '4xx'] as FailureStatus[]) {
  describe(`against the sandbox answering failures with ${failureStatus === '200' ? 'HTTP 200' : '400/404/409'}`, () => {
    let sandbox: Sandbox;
    let client: GatewayClient;
    const status = (legacy: number): number => (failureStatus === '4xx' ? legacy : 200);

    before(async () => {
      sandbox = await createSandbox({ port: 0, host: '127.0.0.1', failureStatus });
      client = new GatewayClient({
        token: sandbox.token,
        secret: sandbox.secret,
        baseUrl: sandbox.url,
        retries: 0,
        timeoutMs: 5_000,
      });
    });
    after(() => sandbox.close());

    it('a declined card is CardDeclinedError with its originalErrorCode', async () => {
      const err = await failureOf(client.payments.create(payment('4000000000009995')));
      assert.ok(err instanceof CardDeclinedError);
      assert.equal(err.originalErrorCode, 'fin051');
      assert.equal(err.statusCode, 200);
    });

    it('a malformed request is RequestRejectedError (fin030), not a decline', async () => {
      // Well formed for our schema, refused by the gateway: no such affiliate.
      const err = await failureOf(
        client.payments.create(payment('4111111111111111', { affiliateMerchantId: 7 })),
      );
      assert.ok(err instanceof RequestRejectedError && !(err instanceof CardDeclinedError));
      assert.equal(err.originalErrorCode, 'fin030');
      assert.equal(err.code, -1);
      assert.equal(err.statusCode, status(400));
      assert.match(err.message, /affiliateMerchantId/);
    });

    it('an unknown reference or token is RequestRejectedError (fin025), on card calls too', async () => {
      for (const call of [
        client.lookups.payment('NO-SUCH-PAYMENT'),
        client.payments.execute('NO-SUCH-PAYMENT'),
        client.payments.confirm3dsV2('NO-SUCH-PAYMENT', 'cres'),
        client.payments.create(payment('4111111111111111', { creditCard: { token: 'nope' } })),
      ]) {
        const err = await failureOf(call);
        assert.ok(err instanceof RequestRejectedError && !(err instanceof CardDeclinedError));
        assert.equal(err.originalErrorCode, 'fin025');
        assert.equal(err.statusCode, status(404));
      }
    });

    it('executing twice and refunding more than is left are RequestRejectedError (fin058)', async () => {
      const out = await client.payments.create(payment('5555555555554444'));
      assert.equal((await client.payments.execute(out.reference)).kind, 'executed');
      const twice = await failureOf(client.payments.execute(out.reference));
      assert.ok(twice instanceof RequestRejectedError);
      assert.equal(twice.originalErrorCode, 'fin058');
      assert.equal(twice.statusCode, status(409));
      const over = await failureOf(
        client.payments.refund(out.reference, { currency: 'ZAR', amount: 10_001 }),
      );
      assert.ok(over instanceof RequestRejectedError);
      assert.equal(over.originalErrorCode, 'fin058');
      assert.equal((await client.lookups.payment(out.reference)).status, 'SETTLED');
    });

    it('a reused merchant reference is DuplicateReferenceError naming the earlier payment', async () => {
      const first = payment('5555555555554444');
      const out = await client.payments.create(first);
      const err = await failureOf(client.payments.create(first));
      assert.ok(err instanceof DuplicateReferenceError);
      assert.equal(err.originalErrorCode, 'fin094');
      assert.equal(err.reference, out.reference);
      assert.equal(err.statusCode, status(409));
      const found = await client.reconcile(first.transaction.reference);
      assert.ok(found.found && found.record.reference === out.reference);
    });

    it('a junk cres is RequestRejectedError and leaves the payment waiting for 3-D Secure', async () => {
      const out = await client.payments.create(
        payment('4000000000003055', { supports3dsV2: true, callbackUrl: 'https://shop.test/cb' }),
      );
      assert.equal(out.kind, '3ds-v2-challenge');
      const err = await failureOf(client.payments.confirm3dsV2(out.reference, 'junk'));
      assert.ok(err instanceof RequestRejectedError && !(err instanceof CardDeclinedError));
      assert.equal(err.originalErrorCode, 'fin030');
      assert.equal((await client.lookups.payment(out.reference)).status, 'THREE_D_SECURE');
    });

    it('failed authentication is ThreeDSecureFailedError (code 3, fin006)', async () => {
      const out = await client.payments.create(
        payment('4000000000000127', { supports3dsV2: true, callbackUrl: 'https://shop.test/cb' }),
      );
      assert.equal(out.kind, '3ds-v2-method');
      if (out.kind !== '3ds-v2-method') return;
      const err = await failureOf(
        client.payments.confirmStep2(out.reference, {
          txId: out.threeDSecureV2.txId,
          transactionId: out.threeDSecureV2.transactionId,
        }),
      );
      assert.ok(err instanceof ThreeDSecureFailedError);
      assert.equal(err.code, 3);
      assert.equal(err.statusCode, 200);
    });

    it('a v3 edit on the execution day is RequestRejectedError (code 1); code 19 stays GatewayError', async () => {
      const urls = {
        success: 'https://shop.test/ok',
        cancel: 'https://shop.test/cancel',
        error: 'https://shop.test/err',
      };
      const out = await client.foreign.create({
        transaction: { reference: ref('v3'), currency: 'USD', amount: 1_000 },
        urls,
      });
      const late = await failureOf(client.foreign.edit(out.reference, { description: 'x' }));
      assert.ok(late instanceof RequestRejectedError);
      assert.equal(late.code, 1);
      assert.equal(late.statusCode, status(409));
      const noPage = await failureOf(
        client.redirects.create({
          transaction: { reference: ref('r'), currency: 'ZAR', amount: 1_000 },
          urls,
          pageUrlKey: 'no-such-page',
        }),
      );
      assert.ok(noPage.constructor === GatewayError);
      assert.equal(noPage.code, 19);
      assert.equal(noPage.statusCode, status(404));
    });

    it('reconcile: an unknown merchant reference is not found, a pending refund is an outcome', async () => {
      assert.equal((await client.reconcile(ref('never'))).found, false);
      const out = await client.payments.create(payment('5555555555554444', { autoExecute: true }));
      const pending = await client.payments.refund(out.reference, {
        currency: 'ZAR',
        amount: 1_007,
      });
      assert.equal(pending.kind, 'pending');
    });
  });
}
