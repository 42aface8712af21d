import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { GatewayClient } from '@pg-checkout/node';
import type { Shop } from './shop.js';

/** A client of the shop's in-process sandbox, with the sandbox's default credentials. */
export function sandboxClient(shop: Shop): GatewayClient {
  return new GatewayClient({
    baseUrl: shop.sandboxUrl,
    token: 'sandbox-token',
    secret: 'sandbox-secret',
  });
}

/** Authorizes a card payment at the sandbox directly (no browser) and returns its reference. */
export async function authorizedPayment(shop: Shop, amount: number): Promise<string> {
  const outcome = await sandboxClient(shop).payments.create({
    creditCard: {
      number: '4111111111111111',
      cardHolder: 'Thandi Nkosi',
      expiryMonth: 12,
      expiryYear: new Date().getUTCFullYear() + 3,
      cvv: '123',
      type: 'visa',
    },
    transaction: { reference: `e2e-${randomUUID().slice(0, 8)}`, currency: 'ZAR', amount },
    autoExecute: false,
    clientIp: '127.0.0.1',
    screenWidth: '1100',
    screenHeight: '900',
  });
  assert.equal(outcome.kind, 'approved');
  return outcome.reference;
}

/** The sandbox's status of a payment. */
export async function sandboxStatus(shop: Shop, reference: string): Promise<string> {
  return (await sandboxClient(shop).lookups.payment(reference)).status;
}

/** The notify hash: MD5 of the payment reference and the merchant's secret. */
export const notifyHash = (reference: string, secret = 'sandbox-secret'): string =>
  createHash('md5')
    .update(reference + secret)
    .digest('hex');
