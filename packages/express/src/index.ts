export { createCheckout } from './create-checkout.js';
export type { CheckoutOptions } from './options.js';
export type {
  CardTestingEvent,
  CheckoutOrder,
  DeclineLimitOptions,
  GatewayCredentials,
  OrderChangedEvent,
  PaymentEvent,
  PaymentMethodName,
  RateLimitOptions,
  WebhookEvent,
  PaymentState,
  ThreeDSAction,
  OrderStatusAnswer,
  CheckoutGateway,
  PaymentOutcome,
  ConfirmOutcome,
  LookupRecord,
  CallOptions,
  CheckoutErrorCode,
  CheckoutLogger,
  CheckoutStore,
  MemoryStoreOptions,
  RedisStoreOptions,
} from '@pg-checkout/server';
export { CheckoutError, stderrLogger, MemoryStore, RedisStore } from '@pg-checkout/server';
