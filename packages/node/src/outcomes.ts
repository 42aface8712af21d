import type {
  ThreeDSecureV1,
  ThreeDSecureV2Challenge,
  ThreeDSecureV2Method,
  TransactionLookupRecord,
} from '@pg-checkout/protocol';

/** The payment is authorized (or executed, with autoExecute). */
export interface ApprovedOutcome {
  kind: 'approved';
  reference: string;
  transactionDate: string | undefined;
  message: string;
  originalErrorCode?: string;
  /** The gateway's answer, card data masked. */
  raw: unknown;
}

/** 3D Secure V1: post acsUrl, transactionId (as MD) and paReq from the shopper's browser. */
export interface ThreeDSecureV1Outcome {
  kind: '3ds-v1';
  reference: string;
  threeDSecure: ThreeDSecureV1;
  raw: unknown;
}

/** 3D Secure V2 Step 2: render tdsMethodContent, wait 3 s, then `payments.confirmStep2`. */
export interface ThreeDSecureV2MethodOutcome {
  kind: '3ds-v2-method';
  reference: string;
  threeDSecureV2: ThreeDSecureV2Method;
  raw: unknown;
}

/** 3D Secure V2 Step 3: the browser posts creq and sessionData to acsUrl; cres comes to callbackUrl. */
export interface ThreeDSecureV2ChallengeOutcome {
  kind: '3ds-v2-challenge';
  reference: string;
  threeDSecureV2: ThreeDSecureV2Challenge;
  raw: unknown;
}

export type PaymentOutcome =
  | ApprovedOutcome
  | ThreeDSecureV1Outcome
  | ThreeDSecureV2MethodOutcome
  | ThreeDSecureV2ChallengeOutcome;

/** Step 2 confirm ends approved, or asks for the challenge. */
export type Step2Outcome = ApprovedOutcome | ThreeDSecureV2ChallengeOutcome;

export interface ExecuteOutcome {
  /** `reversed` when executed with amount 0. */
  kind: 'executed' | 'reversed';
  transactionDate: string | undefined;
  raw: unknown;
}

export type RefundOutcome =
  | { kind: 'refunded'; transactionDate: string | undefined; raw: unknown }
  /** Code 7: processed manually, may still succeed; the notify webhook follows. */
  | { kind: 'pending'; code: 7; originalErrorCode: string; message: string; raw: unknown };

export type ReconcileResult =
  { found: false; message?: string } | { found: true; record: TransactionLookupRecord };

/** Where to send the shopper: the hosted page (v3), redirect page or EFT page. */
export interface RedirectOutcome {
  reference: string;
  redirectUrl: string;
  message: string;
  raw: unknown;
}
