import type { AnswerCode, CheckoutErrorCode } from './codes.js';
import type { CardType, PaymentMethod } from '../vocabulary/index.js';

export type { PaymentMethod };

export type ThreeDSMethodAction = {
  version: 2;
  step: 'method';
  methodUrl: string;
  tdsMethodContent: string;
  txId: string;
  transactionId: string;
  confirmUrl: string;
};

export type ThreeDSChallengeAction = {
  version: 2;
  step: 'challenge';
  acsUrl: string;
  creq: string;
  threeDSSessionData: string;
  transactionId: string;
  /** Origin of the middleware's completion page (its `publicUrl`); may differ from the checkout page's. */
  callbackOrigin: string;
};

export type ThreeDSV1Action = {
  version: 1;
  acsUrl: string;
  paReq: string;
  md: string;
  termUrl: string;
  /** Origin of the middleware's completion page (its `publicUrl`); may differ from the checkout page's. */
  callbackOrigin: string;
};

export type ThreeDSV2Action = ThreeDSMethodAction | ThreeDSChallengeAction;
/** What the browser needs to run the next 3-D Secure step. */
export type ThreeDSAction = ThreeDSV2Action | ThreeDSV1Action;

/** The order's total is not the one the page showed: nothing was sent to the gateway. */
export interface AmountChangedState {
  success: false;
  status: 'failed';
  code: 'amount_changed';
  reference?: undefined;
  message: string;
  /** The order's total now, for the page to show before the shopper pays again. */
  order: { amount: number; currency: string };
}

/**
 * What create, Step 2 confirm, cancel and the status read answer. `Code`: the failure codes a reader
 * may meet; the middleware answers `CheckoutErrorCode` only, a browser also meets its own.
 */
export type PaymentState<Code extends string = CheckoutErrorCode> =
  | {
      success: true;
      status: 'approved';
      reference: string;
      message: string;
      /** The order was already paid by this payment; the request that got this answer charged nothing. */
      alreadyPaid?: true;
    }
  | { success: true; status: 'pending'; reference: string; message: string }
  | { success: true; status: 'authenticating'; reference: string; threeDS: ThreeDSAction }
  | {
      success: false;
      status: 'declined';
      reference?: string;
      message: string;
      code: Code;
      originalErrorCode?: string;
    }
  | { success: false; status: 'failed'; reference?: string; message: string; code: Code }
  | AmountChangedState;

/** A state as answered to the browser that created the payment: with the secret that proves it. */
export type OwnedPaymentState<Code extends string = CheckoutErrorCode> = PaymentState<Code> & {
  clientSecret?: string;
};

/** `GET {mount}/order`: what became of the shopper's order. */
export type OrderStatusAnswer<Code extends string = CheckoutErrorCode> =
  | { success: true; status: 'open' }
  | { success: true; status: 'checking'; message: string }
  | { success: true; status: 'in_progress' | 'paid'; payment: OwnedPaymentState<Code> };

/** `GET {mount}/config`: the order, for display only. */
export interface CheckoutConfig {
  success: true;
  amount: number;
  currency: string;
  methods: PaymentMethod[];
  savedCards: boolean;
}

export interface SavedCard {
  token: string;
  /** Masked: first six, X characters, last four. */
  number: string;
  type: CardType;
  expiryMonth: number;
  expiryYear: number;
  cardHolder: string;
}

/** `POST {mount}/hosted|redirect|eft`: where to send the shopper. */
export interface RedirectResult {
  success: true;
  reference: string;
  redirectUrl: string;
  /** Proof of ownership for `GET {mount}/payments/:reference`. */
  clientSecret?: string;
}

/** Every failure of a JSON route: a shopper-readable message and a stable code. */
export interface ApiFailure {
  success: false;
  message: string;
  code: AnswerCode;
}
