/** What the browser needs to run the next 3-D Secure step. */
export type ThreeDSAction =
  | {
      version: 2;
      step: 'method';
      methodUrl: string;
      tdsMethodContent: string;
      txId: string;
      transactionId: string;
      confirmUrl: string;
    }
  | {
      version: 2;
      step: 'challenge';
      acsUrl: string;
      creq: string;
      threeDSSessionData: string;
      transactionId: string;
      /** Origin of the completion page (`publicUrl`'s), which may differ from the checkout page's. */
      callbackOrigin: string;
    }
  | {
      version: 1;
      acsUrl: string;
      paReq: string;
      md: string;
      termUrl: string;
      callbackOrigin: string;
    };

/** What payment create, Step 2 confirm and status answer (docs/contracts.md). */
export type PaymentState =
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
      code: string;
      originalErrorCode?: string;
    }
  | { success: false; status: 'failed'; reference?: string; message: string; code: string }
  | AmountChangedState;

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

/** A state as answered to the browser that created the payment: with the secret that proves it. */
export type OwnedPaymentState = PaymentState & { clientSecret?: string };

/** HTTP status for a state: 200 while it can still succeed (or the shopper closed the bank check), 402 for a refusal, 502/504 for gateway trouble. */
export function httpStatusOf(state: PaymentState): number {
  if (state.success) return 200;
  if (state.status === 'declined') return 402;
  if (/^(already_paid|order_changed|amount_changed)$/.test(state.code)) return 409;
  // The shopper's own close, confirmed: an answer, not trouble.
  if (state.code === 'authentication_cancelled') return 200;
  return state.code === 'gateway_timeout' ? 504 : 502;
}
