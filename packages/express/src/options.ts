import type { Request } from 'express';
import type { CheckoutOptions as CoreOptions } from '@pg-checkout/server';

/** Options of `createCheckout()`: the core's, with Express's `Request` handed to your hooks. */
export type CheckoutOptions = CoreOptions<Request>;
