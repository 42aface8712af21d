/**
 * originalErrorCodes the client branches on. The spec names fin006 (3-D Secure failed) and fin012
 * (manual refund); the rest follow ISO 8583 response codes, as the sandbox answers them. Of these,
 * everything but fin006 and fin012 is a refusal of the request (`RequestRejectedError`), not a decline.
 */
export const OriginalErrorCodes = {
  /** 3-D Secure authentication failed (with code 3). */
  THREE_D_SECURE_FAILED: 'fin006',
  /** The refund went to manual processing (with code 7). */
  PENDING_REFUND: 'fin012',
  /** ISO 8583 25, "unable to locate record": unknown reference, token or subscription. */
  NOT_FOUND: 'fin025',
  /** ISO 8583 30, "format error": a malformed or missing field, a junk 3-D Secure proof. */
  FORMAT_ERROR: 'fin030',
  /** ISO 8583 58, "transaction not permitted": not allowed in the transaction's current state. */
  NOT_ALLOWED: 'fin058',
  /** ISO 8583 94, "duplicate transmission": the merchant reference was used before. */
  DUPLICATE_REFERENCE: 'fin094',
} as const;
