// The Browser API's shapes, declared once in `@pg-checkout/protocol/browser` (docs/contracts.md) and
// re-exported under the names merchants' code already imports. Types only: no byte reaches the bundle.
import type {
  ApiFailure as AnswerFailure,
  OrderStatusAnswer as OrderAnswer,
  OwnedPaymentState,
} from '@pg-checkout/protocol/browser';
import type { KnownCode } from './codes.js';

export type {
  CardDetails,
  CardToken,
  CardType,
  CheckoutConfig,
  CheckoutErrorCode,
  PaymentMethod,
  PaymentRequest,
  RedirectResult,
  SavedCard,
  ThreeDSAction,
  ThreeDSChallengeAction,
  ThreeDSMethodAction,
  ThreeDSV1Action,
  ThreeDSV2Action,
} from '@pg-checkout/protocol/browser';
export type { CodeMeaning, DropInCode, KnownCode } from './codes.js';

/** A failure's code in the browser: the middleware's, the drop-in's own, or one a merchant's hook threw. */
export type FailureCode = KnownCode | (string & {});

/**
 * What create, Step 2 confirm and the status read answer (docs/contracts.md, Browser API), and the
 * drop-in's own failures. Create answers with a reference also carry `clientSecret`, the proof that
 * this browser owns the payment.
 */
export type PaymentState = OwnedPaymentState<FailureCode>;

/** A final state: anything but `authenticating`. */
export type FinalPaymentState = Exclude<PaymentState, { status: 'authenticating' }>;

/** `GET {endpoint}/order`: what became of the shopper's order (docs/contracts.md, "What the order is now"). */
export type OrderStatusAnswer = OrderAnswer<FailureCode> & {
  /** Seconds, from the answer's `Retry-After`. */
  retryAfter?: number;
};

export type ApiFailure = AnswerFailure & {
  /** Seconds, from the answer's `Retry-After`. */
  retryAfter?: number;
};
