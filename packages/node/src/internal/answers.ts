import { check, describeIssues, type AnySchema, type SchemaOutput } from '@pg-checkout/protocol';
import {
  CardDeclinedError,
  DuplicateReferenceError,
  GatewayError,
  RequestRejectedError,
  InvalidRequestError,
  ThreeDSecureFailedError,
  UnexpectedResponseError,
} from '../errors.js';
import { OriginalErrorCodes } from '../codes.js';
import type { Answer } from './transport.js';

/** Card operations map code -1 to a decline and code 3 to a 3D Secure failure; others stay general. */
export type FailureKind = 'card' | 'general';

/** Checks our own request against its strict schema before anything is sent. */
export function validRequest<S extends AnySchema>(
  schema: S,
  input: unknown,
  what: string,
): SchemaOutput<S> {
  const result = check(schema, input);
  if (result.success) return result.data;
  throw new InvalidRequestError(
    `invalid ${what} request: ${describeIssues(result.issues)}`,
    result.issues,
  );
}

/** Encodes a path parameter, refusing empty or non-string values. */
export function pathParam(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new InvalidRequestError(`${name} must be a non-empty string`, [
      { path: name, message: 'required' },
    ]);
  }
  return encodeURIComponent(value);
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const int = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) ? v : undefined;

/**
 * originalErrorCodes of a request the gateway refused without deciding anything about the card:
 * format error, record not found, not permitted now, duplicate transmission (ISO 8583 30, 25, 58, 94).
 */
export const REJECTION_CODES: ReadonlySet<string> = new Set([
  OriginalErrorCodes.FORMAT_ERROR,
  OriginalErrorCodes.NOT_FOUND,
  OriginalErrorCodes.NOT_ALLOWED,
  OriginalErrorCodes.DUPLICATE_REFERENCE,
]);

/** What a `success: false` answer says, or a line saying it said nothing. */
export const refusalMessage = (answer: Answer): string =>
  text(answer.body.message) || 'the gateway refused the request without a message';

/**
 * Turns a `success: false` answer into the error class its code calls for. The HTTP status plays no
 * part: the gateway answers failures with 200, and a 4xx carrying the envelope is read the same way.
 */
export function failure(answer: Answer, kind: FailureKind, reference?: string): GatewayError {
  const body = answer.body;
  const code = int(body.code);
  const fields = {
    code,
    originalErrorCode: text(body.originalErrorCode),
    statusCode: answer.status,
    reference: text(body.reference) ?? reference,
    raw: body,
  };
  const message = refusalMessage(answer);
  const original = fields.originalErrorCode;
  if (kind === 'card' && (code === 3 || original === 'fin006')) {
    return new ThreeDSecureFailedError(message, fields);
  }
  if (original === OriginalErrorCodes.DUPLICATE_REFERENCE)
    return new DuplicateReferenceError(message, fields);
  if (original !== undefined && REJECTION_CODES.has(original))
    return new RequestRejectedError(message, fields);
  // success false with code 1: v3 edit / transfer changes not allowed (any more); code 3 outside card
  // calls: v3 create without urls. Both refuse the request, neither declines a card.
  if (code === 1 || code === 3) return new RequestRejectedError(message, fields);
  if (kind === 'card' && code === -1) return new CardDeclinedError(message, fields);
  return new GatewayError(message, fields);
}

/** Checks a successful answer against its loose schema. */
export function parsed<S extends AnySchema>(
  answer: Answer,
  schema: S,
  what: string,
): SchemaOutput<S> {
  const result = check(schema, answer.body);
  if (result.success) return result.data;
  throw new UnexpectedResponseError(
    `the gateway's answer to ${what} does not match the interface: ${describeIssues(result.issues)}`,
    {
      statusCode: answer.status,
      raw: answer.body,
      issues: result.issues,
      reference: text(answer.body.reference),
    },
  );
}

/** The usual case: success true -> typed data, success false -> thrown error. */
export function expectSuccess<S extends AnySchema>(
  answer: Answer,
  schema: S,
  what: string,
  kind: FailureKind = 'general',
  reference?: string,
): SchemaOutput<S> {
  if (!answer.body.success) throw failure(answer, kind, reference);
  return parsed(answer, schema, what);
}
