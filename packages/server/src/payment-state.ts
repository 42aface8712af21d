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
  | { success: true; status: 'approved'; reference: string; message: string }
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
  | { success: false; status: 'failed'; reference?: string; message: string; code: string };

/** A state as answered to the browser that created the payment: with the secret that proves it. */
export type OwnedPaymentState = PaymentState & { clientSecret?: string };

/** HTTP status for a state: 200 while it can still succeed, 402 for a refusal, 502/504 for gateway trouble. */
export function httpStatusOf(state: PaymentState): number {
  if (state.success) return 200;
  if (state.status === 'declined') return 402;
  if (state.code === 'already_paid' || state.code === 'order_changed') return 409;
  return state.code === 'gateway_timeout' ? 504 : 502;
}
