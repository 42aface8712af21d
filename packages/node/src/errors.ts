import { maskCardData, maskText, type SchemaIssue } from '@pg-checkout/protocol';

export interface GatewayErrorFields {
  code?: number | undefined;
  originalErrorCode?: string | undefined;
  statusCode?: number | undefined;
  reference?: string | undefined;
  /** The gateway's answer (parsed JSON, or text when it was not JSON); masked before it is stored. */
  raw?: unknown;
  cause?: unknown;
}

/**
 * What kind of failure a `GatewayError` is, one per class: switch on it instead of `instanceof`,
 * which two copies of this package in one app break.
 */
export type GatewayErrorType =
  | 'gateway_error'
  | 'card_declined'
  | 'authentication_failed'
  | 'request_rejected'
  | 'duplicate_reference'
  | 'signature'
  | 'connection'
  | 'timeout'
  | 'invalid_request'
  | 'unexpected_response';

/** Base of every failure the client throws; callers branch on `type` (or the subclass), not on the message. */
export class GatewayError extends Error {
  override name = 'GatewayError';
  /** The failure's kind, one per class (`GatewayErrorType`). */
  readonly type: GatewayErrorType = 'gateway_error';
  readonly code: number | undefined;
  readonly originalErrorCode: string | undefined;
  readonly statusCode: number | undefined;
  readonly reference: string | undefined;
  /** What came back, with card numbers masked and CVVs removed. */
  readonly raw: unknown;

  constructor(message: string, fields: GatewayErrorFields = {}) {
    super(maskText(message), fields.cause === undefined ? undefined : { cause: fields.cause });
    this.code = fields.code;
    this.originalErrorCode = fields.originalErrorCode;
    this.statusCode = fields.statusCode;
    this.reference = fields.reference;
    this.raw = maskCardData(fields.raw);
  }
}

/** The processor declined the card (code -1); `originalErrorCode` says why (fin005, fin051, ...). */
export class CardDeclinedError extends GatewayError {
  override name = 'CardDeclinedError';
  override readonly type = 'card_declined';
}

/** 3D Secure authentication failed (code 3, originalErrorCode fin006). */
export class ThreeDSecureFailedError extends GatewayError {
  override name = 'ThreeDSecureFailedError';
  override readonly type = 'authentication_failed';
}

/**
 * The gateway refused the request itself: a malformed field (fin030), an unknown reference (fin025),
 * an operation the transaction's current state does not allow (fin058, or code 1 on v3 edits and
 * transfer changes), a missing urls object (code 3 on v3 create). Nothing about the card was decided:
 * this is never a decline, and the transaction, if any, is as it was.
 */
export class RequestRejectedError extends GatewayError {
  override name = 'RequestRejectedError';
  override readonly type: 'request_rejected' | 'duplicate_reference' = 'request_rejected';
}

/**
 * The merchant reference (or transfer or subscription reference) was used before (fin094, "duplicate
 * transmission"): one merchant reference is one transaction. `reference` is the earlier transaction's,
 * when the gateway names it; look it up (or `client.reconcile`) instead of paying again.
 */
export class DuplicateReferenceError extends RequestRejectedError {
  override name = 'DuplicateReferenceError';
  override readonly type = 'duplicate_reference';
}

/** HTTP 403: the signature did not match or the credentials belong to the other environment. */
export class SignatureError extends GatewayError {
  override name = 'SignatureError';
  override readonly type = 'signature';
}

/** No answer: connection refused or reset, DNS failure, or the gateway answered 5xx. */
export class GatewayConnectionError extends GatewayError {
  override name = 'GatewayConnectionError';
  override readonly type = 'connection';
}

/** No answer in time. On a POST the outcome is unknown: reconcile before trying again. */
export class GatewayTimeoutError extends GatewayError {
  override name = 'GatewayTimeoutError';
  override readonly type = 'timeout';
}

/** Our own request broke the gateway's rules; nothing was sent. `issues` names each field. */
export class InvalidRequestError extends GatewayError {
  override name = 'InvalidRequestError';
  override readonly type = 'invalid_request';
  readonly issues: readonly SchemaIssue[];
  constructor(message: string, issues: readonly SchemaIssue[]) {
    super(message);
    this.issues = issues.map((i) => ({ path: i.path, message: maskText(i.message) }));
  }
}

/** The answer was not JSON, or did not match its schema; `raw` holds what came back, masked. */
export class UnexpectedResponseError extends GatewayError {
  override name = 'UnexpectedResponseError';
  override readonly type = 'unexpected_response';
  readonly issues: readonly SchemaIssue[];
  constructor(message: string, fields: GatewayErrorFields & { issues?: readonly SchemaIssue[] }) {
    super(message, fields);
    this.issues = fields.issues ?? [];
  }
}

export type WebhookFailureReason =
  | 'not-raw'
  | 'malformed'
  | 'invalid-payload'
  | 'unknown-merchant'
  | 'hash-mismatch'
  | 'record-mismatch';

/** A webhook failed verification; `statusCode` is the 4xx to answer with. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  /** Not a `GatewayError`: a delivery to refuse, `reason` says why. */
  readonly type = 'webhook_verification';
  readonly statusCode: 400 | 401;
  readonly reason: WebhookFailureReason;
  readonly issues: readonly SchemaIssue[];
  constructor(
    message: string,
    reason: WebhookVerificationError['reason'],
    issues: readonly SchemaIssue[] = [],
  ) {
    super(maskText(message));
    this.reason = reason;
    // The payload could not be read -> 400; it was read but is not to be trusted -> 401.
    this.statusCode =
      reason === 'not-raw' || reason === 'malformed' || reason === 'invalid-payload' ? 400 : 401;
    this.issues = issues;
  }
}
