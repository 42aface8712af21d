// @pg-checkout/node called directly, as a merchant's back office would: pay, look up, execute.
import { GatewayClient, type CreatePaymentRequest } from '@pg-checkout/node';
import { createSandbox } from '@pg-checkout/sandbox';

const sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
try {
  const client = new GatewayClient({
    baseUrl: sandbox.url,
    token: sandbox.token,
    secret: sandbox.secret,
  });
  const request: CreatePaymentRequest = {
    creditCard: {
      number: '4111111111111111',
      cardHolder: 'A Shopper',
      expiryMonth: 12,
      expiryYear: new Date().getUTCFullYear() + 3,
      cvv: '123',
      type: 'visa',
    },
    transaction: { reference: `direct-${Date.now()}`, currency: 'ZAR', amount: 14_900 },
    autoExecute: false,
    supports3dsV2: true,
    callbackUrl: 'https://shop.example/checkout/3ds/callback',
    clientIp: '203.0.113.7',
    screenWidth: '1280',
    screenHeight: '800',
  };
  const outcome = await client.payments.create(request);
  if (outcome.kind !== 'approved') throw new Error(`expected approved, got ${outcome.kind}`);
  const executed = await client.payments.execute(outcome.reference);
  const record = await client.lookups.payment(outcome.reference);
  console.log(
    JSON.stringify({ kind: outcome.kind, executed: executed.kind, status: record.status }),
  );
} finally {
  await sandbox.close();
}
