export { createCheckout } from './create-checkout.js';
export type {
  CheckoutOptions,
  CheckoutOrder,
  GatewayCredentials,
  PaymentEvent,
  PaymentMethodName,
  WebhookEvent,
} from './options.js';
export type { PaymentState, ThreeDSAction } from './payment-state.js';
export type {
  CheckoutGateway,
  PaymentOutcome,
  ConfirmOutcome,
  LookupRecord,
  CallOptions,
} from './gateway.js';
export { CheckoutError, type CheckoutErrorCode } from './errors.js';
export { type CheckoutLogger, stderrLogger } from './logger.js';
export type { CheckoutStore } from './stores/store.js';
export { MemoryStore, type MemoryStoreOptions } from './stores/memory.js';
export { RedisStore, type RedisStoreOptions } from './stores/redis.js';
