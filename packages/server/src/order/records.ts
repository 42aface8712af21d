import type { PaymentState } from '../payment-state.js';
import type { PaymentMethodKind } from '../options.js';

/** Where a payment's trace began (its create's use case span), kept with its record to link later work to it. */
export interface TraceOrigin {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

/** What the store keeps about one payment; never card data. A cache: the gateway is the truth. */
export interface PaymentRecord {
  reference: string;
  merchantReference: string;
  orderReference: string;
  amount: number;
  currency: string;
  /** The checkout page's origin, where the 3-D Secure completion page posts its message. */
  pageOrigin?: string;
  /** How it was started; hosted-redirect payments have their own lookup. Default `'card'`. */
  method?: PaymentMethodKind;
  state: PaymentState;
  /** Gateway-side 3-D Secure ids, checked against what the bank posts back. */
  threeDS?: {
    version: 1 | 2;
    transactionId: string;
    txId?: string;
    sessionData?: string;
    tdsMethodContent?: string;
    /** An earlier Step 2 confirm got no answer: the gateway may have moved on to a challenge we never saw. */
    step2Unknown?: boolean;
  };
  shopperId?: string;
  /** The bank's cres/PaRes whose confirm got no answer while the gateway still waits for it; re-sent later. */
  retryProof?: { version: 1 | 2; proof: string };
  /** Vault token registered for this payment, kept for the shopper once it is approved. */
  pendingCard?: SavedCard;
  /**
   * Started by the card form with no script (`POST {mount}/form/pay`): the browser's form cookie and
   * the page the form was on. Its 3-D Secure steps answer pages and 303s, not the frame's completion page.
   */
  form?: FormStart;
  /** The span where the payment began: 3-D Secure completion and webhooks link to its trace. */
  trace?: TraceOrigin;
}

export interface FormStart {
  browser: string;
  page: string;
}

export interface SavedCard {
  token: string;
  number: string;
  type: string;
  expiryMonth: number;
  expiryYear: number;
  cardHolder: string;
}

export function isFinal(state: PaymentState): boolean {
  return state.status === 'approved' || state.status === 'declined' || state.status === 'failed';
}
