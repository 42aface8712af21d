// The shop's checkout for the Fetch API frameworks' apps, copied into each app: settings from the
// environment, the handler created on first use (a build that loads this module needs none of them).
import { randomUUID } from 'node:crypto';
import { createCheckoutHandler, type CheckoutHandler } from '@pg-checkout/server';

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

let handler: CheckoutHandler | undefined;

export function checkout(): CheckoutHandler {
  handler ??= createCheckoutHandler({
    gateway: {
      baseUrl: setting('PG_GATEWAY_URL'),
      token: setting('PG_GATEWAY_TOKEN'),
      secret: setting('PG_GATEWAY_SECRET'),
    },
    // e.g. https://shop.example/api/checkout: the handler answers under its path.
    publicUrl: setting('PG_PUBLIC_URL'),
    // The test serves plain http on 127.0.0.1; production insists on https.
    environment: process.env.PG_ENVIRONMENT === 'development' ? 'development' : 'production',
    resolveOrder: () => ({ amount: 12_345, currency: 'ZAR', reference: `order-${randomUUID()}` }),
  });
  return handler;
}
