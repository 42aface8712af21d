/**
 * A failure answered as the gateway envelope `{success:false, message, code, ...}`. `status` is the HTTP
 * status of the `failureStatus: '4xx'` style; by default every API failure is answered with HTTP 200.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: number = -1,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): Record<string, unknown> {
    return { success: false, message: this.message, code: this.code, ...this.extra };
  }
}

/** originalErrorCode for a request the sandbox refuses as malformed (ISO 8583 30, "format error"). */
export const FORMAT_ERROR = 'fin030';
/** originalErrorCode for an unknown reference, token or subscription (ISO 8583 25, "unable to locate record"). */
export const NOT_FOUND = 'fin025';
/** originalErrorCode for an operation the transaction's state does not allow (ISO 8583 58, "not permitted"). */
export const NOT_ALLOWED = 'fin058';
/** originalErrorCode for a merchant reference already used (ISO 8583 94, "duplicate transmission"). */
export const DUPLICATE = 'fin094';

export const badRequest = (message: string): ApiError =>
  new ApiError(400, message, -1, { originalErrorCode: FORMAT_ERROR });

export const notFound = (message: string): ApiError =>
  new ApiError(404, message, -1, { originalErrorCode: NOT_FOUND });

/** A request that is well formed but not allowed in the transaction's current state. */
export const conflict = (message: string, extra: Record<string, unknown> = {}): ApiError =>
  new ApiError(409, message, -1, { originalErrorCode: NOT_ALLOWED, ...extra });

/** A reference (merchant, transfer, subscription) that an earlier request already used. */
export const duplicate = (message: string, extra: Record<string, unknown> = {}): ApiError =>
  new ApiError(409, message, -1, { originalErrorCode: DUPLICATE, ...extra });
