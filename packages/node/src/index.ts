export { GatewayClient } from './client.js';
export {
  Environments,
  type Environment,
  type GatewayClientOptions,
  type GatewayLogger,
} from './options.js';
export type { CallOptions, ExchangeListener, GatewayExchange } from './internal/transport.js';
export type { ExecuteAmount, RefundAmount } from './internal/money.js';
export type {
  ApprovedOutcome,
  ExecuteOutcome,
  PaymentOutcome,
  ReconcileResult,
  RedirectOutcome,
  RefundOutcome,
  Step2Outcome,
  ThreeDSecureV1Outcome,
  ThreeDSecureV2ChallengeOutcome,
  ThreeDSecureV2MethodOutcome,
} from './outcomes.js';
export {
  CardDeclinedError,
  DuplicateReferenceError,
  GatewayConnectionError,
  GatewayError,
  GatewayTimeoutError,
  InvalidRequestError,
  RequestRejectedError,
  SignatureError,
  ThreeDSecureFailedError,
  UnexpectedResponseError,
  WebhookVerificationError,
  type GatewayErrorFields,
  type GatewayErrorType,
  type WebhookFailureReason,
} from './errors.js';
export { OriginalErrorCodes } from './codes.js';
export { signRequest, serializeBody } from './signing.js';
export {
  verifyPaymentNotification,
  verifyPayoutWebhook,
  webhookHash,
  type NotificationSecret,
} from './webhooks.js';
export type { Cards } from './resources/cards.js';
export type { Foreign } from './resources/foreign.js';
export type { Lookups } from './resources/lookups.js';
export type { Payments } from './resources/payments.js';
export type { Redirects } from './resources/redirects.js';
export type { Subscriptions } from './resources/subscriptions.js';
export type { Transfers } from './resources/transfers.js';

// The request and answer shapes, so a caller needs no second import to type what it sends.
export type {
  AddForeignTransferRequest,
  CancelSubscriptionRequest,
  CancelTransferRequest,
  CreateEftRequest,
  CreateForeignPaymentRequest,
  CreatePaymentRequest,
  CreateRedirectRequest,
  CreateTransferRequest,
  EditForeignPaymentRequest,
  EditSubscriptionRequest,
  ListPaymentsRequest,
  LookupCardRequest,
  LookupStatus,
  PaymentNotification,
  PayoutWebhook,
  RefundMultipleRequest,
  RegisterCardRequest,
  TransactionLookupRecord,
  RedirectLookupRecord,
} from '@pg-checkout/protocol';
