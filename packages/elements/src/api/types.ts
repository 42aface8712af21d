/** Card brands the gateway accepts, in its own words. */
export type CardType = 'visa' | 'mastercard' | 'amex' | 'diners';

/** Raw card data exactly as the gateway expects it (cvv a string, month and year numbers). */
export interface CardDetails {
  number: string;
  cardHolder: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
  type: CardType;
}

/** A card stored in the vault, referenced by its token. */
export interface CardToken {
  token: string;
}

/** Body of `POST {endpoint}/payments`. */
export interface PaymentRequest {
  card: CardDetails | CardToken;
  screenWidth: number;
  screenHeight: number;
  saveCard?: boolean;
  /** The total the page showed on Pay (cents): the middleware refuses `amount_changed` when the order differs. */
  shown?: { amount: number; currency: string } | undefined;
}

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
  /** Origin of the middleware's completion page (its `publicUrl`); may differ from the endpoint's. */
  callbackOrigin: string;
};

export type ThreeDSV1Action = {
  version: 1;
  acsUrl: string;
  paReq: string;
  md: string;
  termUrl: string;
  /** Origin of the middleware's completion page (its `publicUrl`); may differ from the endpoint's. */
  callbackOrigin: string;
};

export type ThreeDSV2Action = ThreeDSMethodAction | ThreeDSChallengeAction;
export type ThreeDSAction = ThreeDSV2Action | ThreeDSV1Action;

/**
 * What create, Step 2 confirm and the status read answer (docs/contracts.md, Browser API). Create answers
 * with a reference also carry `clientSecret`, the proof that this browser owns the payment.
 */
export type PaymentState = (
  | {
      success: true;
      status: 'approved';
      reference: string;
      message: string;
      /** The order was already paid by this payment; the request that got it charged nothing. */
      alreadyPaid?: true;
    }
  | { success: true; status: 'pending'; reference: string; message: string }
  | { success: true; status: 'authenticating'; reference: string; threeDS: ThreeDSAction }
  | {
      success: false;
      status: 'declined';
      reference?: string;
      message: string;
      code: string;
      originalErrorCode?: string;
    }
  | { success: false; status: 'failed'; reference?: string; message: string; code: string }
  | {
      success: false;
      status: 'failed';
      code: 'amount_changed';
      reference?: undefined;
      message: string;
      /** The order's total now, to show before the shopper pays again. */
      order: { amount: number; currency: string };
    }
) & { clientSecret?: string };

/** A final state: anything but `authenticating`. */
export type FinalPaymentState = Exclude<PaymentState, { status: 'authenticating' }>;

export type PaymentMethod = 'card' | 'hosted' | 'eft' | 'redirect';

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

export interface RedirectResult {
  success: true;
  reference: string;
  redirectUrl: string;
  /** Proof of ownership for `GET {endpoint}/payments/:reference`. */
  clientSecret?: string;
}

/** `GET {endpoint}/order`: what became of the shopper's order (docs/contracts.md, "What the order is now"). */
export type OrderStatus = (
  | { success: true; status: 'open' }
  | { success: true; status: 'checking'; message: string }
  | { success: true; status: 'in_progress' | 'paid'; payment: PaymentState }
) & { retryAfter?: number };

export interface ApiFailure {
  success: false;
  message: string;
  code: string;
  /** Seconds, from the answer's `Retry-After`. */
  retryAfter?: number;
}
