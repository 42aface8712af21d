// Schema builders that take the internal strict/lenient mode stay unexported.
export * from './constants.js';
export * from './dates.js';
export * from './mask.js';
export * from './issues.js';
export * from './envelope.js';
export {
  RawCardSchema,
  RawCardLenientSchema,
  TokenCardSchema,
  TransactionReferenceCardSchema,
  PaymentReferenceCardSchema,
  CreditCardSchema,
  CreditCardLenientSchema,
  isRawCard,
  hasAmexPlaceholderCvv,
  RECURRING_PLACEHOLDER_CVV,
  MaskedCardSchema,
  type RawCard,
  type TokenCard,
  type TransactionReferenceCard,
  type PaymentReferenceCard,
  type CreditCard,
  type MaskedCard,
} from './cards.js';
export {
  ConsumerAddressSchema,
  ConsumerAddressLenientSchema,
  ConsumerSchema,
  ConsumerLenientSchema,
  UrlsSchema,
  UrlsLenientSchema,
  SubscriptionSchema,
  SubscriptionLenientSchema,
  type ConsumerAddress,
  type Consumer,
  type Urls,
  type Subscription,
} from './consumers.js';
export {
  TransactionSchema,
  TransactionLenientSchema,
  PreparedTransferSchema,
  PreparedTransferLenientSchema,
  maxTransferable,
  checkTransferShare,
  TransactionDetailsSchema,
  type Transaction,
  type PreparedTransfer,
  type TransactionDetails,
} from './transactions.js';
export * from './three-d-secure.js';
export * from './payments.js';
export {
  CreateForeignPaymentRequestSchema,
  CreateForeignPaymentRequestLenientSchema,
  CreateForeignPaymentResponseSchema,
  EditForeignPaymentRequestSchema,
  EditForeignPaymentRequestLenientSchema,
  AddForeignTransferRequestSchema,
  AddForeignTransferRequestLenientSchema,
  ForeignChangeResponseSchema,
  type CreateForeignPaymentRequest,
  type CreateForeignPaymentResponse,
  type EditForeignPaymentRequest,
  type AddForeignTransferRequest,
  type ForeignChangeResponse,
} from './foreign.js';
export * from './vault.js';
export * from './lookups.js';
export * from './transfers.js';
export * from './subscriptions.js';
export * from './redirects.js';
export * from './webhooks.js';
