import assert from 'node:assert/strict';
import type { GatewayClient } from '@pg-checkout/node';

/**
 * A card payment of `amount` cents, approved and settled at once (a frictionless 4111…1111);
 * with `autoExecute: false`, approved and only authorized.
 */
export async function settledPayment(
  client: GatewayClient,
  amount: number,
  merchantReference: string,
  { autoExecute = true }: { autoExecute?: boolean } = {},
): Promise<string> {
  const out = await client.payments.create({
    creditCard: {
      number: '4111111111111111',
      cardHolder: 'Thandi Nkosi',
      expiryMonth: 12,
      expiryYear: new Date().getUTCFullYear() + 3,
      cvv: '123',
      type: 'visa',
    },
    transaction: { reference: merchantReference, currency: 'ZAR', amount },
    autoExecute,
    clientIp: '127.0.0.1',
    screenWidth: '1280',
    screenHeight: '800',
  });
  assert.equal(out.kind, 'approved');
  return out.reference;
}

/** Cents the sandbox has refunded on a payment (its test-only transaction view). */
export const refundedAtSandbox = async (sandboxUrl: string, reference: string): Promise<number> =>
  (
    (await (await fetch(`${sandboxUrl}/_sandbox/transactions/${reference}`)).json()) as {
      refunded: number;
    }
  ).refunded;

/** The shopper pays 4111…1111 on the sandbox's own payment page of a redirect (hosted/EFT) payment. */
export const payOnSandboxPage = (sandboxUrl: string, reference: string): Promise<Response> =>
  fetch(`${sandboxUrl}/pay/${reference}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      number: '4111111111111111',
      cardHolder: 'Thandi Nkosi',
      expiryMonth: '12',
      expiryYear: String(new Date().getUTCFullYear() + 3),
      cvv: '123',
    }),
    redirect: 'manual',
  });
