/** A failure answered as the gateway envelope `{success:false, message, code, ...}` with an HTTP status. */
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

/** originalErrorCode for a request the sandbox refuses as malformed ("format error"). */
export const FORMAT_ERROR = 'fin030';

export const badRequest = (message: string): ApiError =>
  new ApiError(400, message, -1, { originalErrorCode: FORMAT_ERROR });

export const notFound = (message: string): ApiError => new ApiError(404, message, -1);

/** A request that is well formed but not allowed in the transaction's current state. */
export const conflict = (message: string, extra: Record<string, unknown> = {}): ApiError =>
  new ApiError(409, message, -1, extra);
