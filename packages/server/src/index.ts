// The HTTP edge hands `CheckoutError` its statuses when it loads (`errors.ts` imports nothing above
// it): loaded with the package whatever a bundler keeps of the rest (package.json `sideEffects`).
import './http/answers.js';

export { createCheckoutCore, type CheckoutActions, type CheckoutCore } from './core.js';
export {
  refund,
  type RefundCommand,
  type RefundDeps,
  type RefundFacts,
  type RefundResult,
} from './use-cases/refund.js';
export { parseRefundReference, refundReference } from './facts/refund-slots.js';
export {
  refundable,
  RefundError,
  type Refundable,
  type RefundErrorCode,
  type RefundGateway,
} from './use-cases/refundable.js';
export type {
  CardTestingEvent,
  CheckoutOptions,
  CheckoutOrder,
  DeclineLimitOptions,
  GatewayCredentials,
  OrderChangedEvent,
  PageIntegrityReport,
  PaymentEvent,
  PaymentMethodKind,
  PaymentMethodName,
  RateLimitOptions,
  ResolveOrderContext,
  ReconcileOptions,
  ReconcileSummary,
  RefundEvent,
  WebhookEvent,
} from './options.js';
export type { OwnedPaymentState, PaymentState, ThreeDSAction } from './payment-state.js';
export type { OrderStatusAnswer } from './use-cases/status.js';
export type {
  CheckoutGateway,
  PaymentOutcome,
  ConfirmOutcome,
  LookupRecord,
  ListedTransaction,
  CallOptions,
} from './gateway/port.js';
export { CheckoutError, type CheckoutErrorCode } from './errors.js';
export { type CheckoutLogger, stderrLogger } from './logger.js';
export type { CheckoutStore } from './stores/store.js';
export { MemoryStore, type MemoryStoreOptions } from './stores/memory.js';
export { RedisStore, type RedisStoreOptions } from './stores/redis.js';
export type { BodyKind, HttpAnswer, HttpExchange } from './http/exchange.js';
export {
  paymentPageHeaders,
  TRUSTED_TYPES_POLICIES,
  type PaymentPageHeaderOptions,
  type PaymentPageHeaders,
} from './http/payment-page-headers.js';
export type { Route } from './http/routes.js';
export { type FormToken } from './http/form-token.js';
export { formNotice } from './http/form-pages.js';
export {
  ATTEMPT_TRANSITIONS,
  orderStatusOf,
  type AttemptEvent,
  type AttemptStatus,
  type OrderStatus,
} from './order/states.js';
export {
  createCheckoutHandler,
  type CheckoutHandler,
  type CheckoutSweep,
  type CheckoutHandlerOptions,
  type HandlerContext,
} from './fetch.js';
