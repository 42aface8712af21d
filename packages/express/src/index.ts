// The server's public API, as the server declares it (a name added there is here too); Express's
// own `createCheckout` and its `CheckoutOptions` (the core's, with Express's `Request` handed to
// your hooks) take the place of the core's names.
export * from '@pg-checkout/server';
export { createCheckout, type CheckoutRouter } from './create-checkout.js';
export type { CheckoutOptions } from './options.js';
