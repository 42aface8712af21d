import { CheckoutError, type CoreErrorCode } from '../errors.js';

interface BodyParserError {
  type?: string;
  status?: number;
  statusCode?: number;
}

// Each code's status is the edge's (`answers.ts`).
const PARSER_ERRORS: Record<string, [CoreErrorCode, string]> = {
  'entity.parse.failed': ['invalid_json', 'The request body is not valid JSON.'],
  'entity.too.large': ['payload_too_large', 'The request body is too large.'],
  'encoding.unsupported': ['unsupported_media_type', 'The request body encoding is not supported.'],
  'charset.unsupported': ['unsupported_media_type', 'The request body charset is not supported.'],
  'request.aborted': ['invalid_request', 'The request was aborted.'],
  'parameters.too.many': ['payload_too_large', 'The request has too many parameters.'],
};

/** An Express body parser's error as the answer it means; `undefined` for any other error. */
export function parserError(error: unknown): CheckoutError | undefined {
  if (!error || typeof error !== 'object' || error instanceof CheckoutError) return undefined;
  const { type, status, statusCode } = error as BodyParserError;
  const known = typeof type === 'string' ? PARSER_ERRORS[type] : undefined;
  if (known) return new CheckoutError(...known);
  const httpStatus = status ?? statusCode;
  return typeof httpStatus === 'number' && httpStatus >= 400 && httpStatus < 500
    ? new CheckoutError(httpStatus, 'invalid_request', 'The request could not be read.')
    : undefined;
}
