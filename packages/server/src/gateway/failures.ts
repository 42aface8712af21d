import type { GatewayErrorType } from '@pg-checkout/node';
import { misconfigured, type CheckoutError } from '../errors.js';
import { sayOnce, type SaidOnce } from '../logger.js';

/** How the middleware treats a failure thrown by the gateway client. */
export type GatewayFailure =
  | {
      kind: 'declined';
      message: string;
      code: number | undefined;
      originalErrorCode: string | undefined;
    }
  | { kind: 'authentication_failed'; message: string; originalErrorCode: string | undefined }
  /** The gateway refused the request itself (malformed, not allowed now); nothing was decided. */
  | { kind: 'rejected'; message: string; originalErrorCode: string | undefined }
  /** The merchant reference was used before: that attempt exists at the gateway. */
  | { kind: 'duplicate' }
  | { kind: 'outcome_unknown' }
  | { kind: 'unavailable' }
  /** A setup fault: the gateway was not reached as configured, or refused the credentials. */
  | { kind: 'misconfigured'; reason: SetupFaultReason }
  | { kind: 'not_gateway' };

/**
 * What is wrong with the setup: `no_endpoint` (a path the gateway does not have, /pg/api appended),
 * `credentials` (403: token or secret), `wrong_host` (not the gateway: no such host name, another
 * site's certificate, a web page), `redirected` (a redirect, as a live gateway's http port answers).
 */
export type SetupFaultReason = 'no_endpoint' | 'credentials' | 'wrong_host' | 'redirected';

// Errors of fetch (undici) and TLS that prove the configured host is not the gateway.
const WRONG_HOST_CODES = new Set([
  'ENOTFOUND',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_HAS_EXPIRED',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** The `code` of the error or one of its causes (fetch wraps the socket's error twice). */
function causeCode(error: object): string | undefined {
  let current: unknown = (error as { cause?: unknown }).cause;
  for (let depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && WRONG_HOST_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

// A web page where the gateway's JSON was expected: the base URL names another site.
const looksLikePage = (raw: unknown) => typeof raw === 'string' && /^\s*</.test(raw);

// The client's classes by name, most specific first: the `type` of an error that has none.
const TYPE_OF_CLASS: readonly (readonly [string, GatewayErrorType])[] = [
  ['DuplicateReferenceError', 'duplicate_reference'],
  ['RequestRejectedError', 'request_rejected'],
  ['ThreeDSecureFailedError', 'authentication_failed'],
  ['CardDeclinedError', 'card_declined'],
  ['GatewayTimeoutError', 'timeout'],
  ['GatewayConnectionError', 'connection'],
  ['UnexpectedResponseError', 'unexpected_response'],
  ['InvalidRequestError', 'invalid_request'],
  ['SignatureError', 'signature'],
  ['GatewayError', 'gateway_error'],
];
const TYPES = new Set<unknown>(TYPE_OF_CLASS.map(([, type]) => type));

// Class names along the prototype chain: survives two copies of @pg-checkout/node where instanceof would not.
function classNames(error: object): Set<string> {
  const names = new Set<string>();
  for (
    let proto = Object.getPrototypeOf(error);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    const name = (proto.constructor as { name?: string } | undefined)?.name;
    if (name) names.add(name);
  }
  const own = (error as { name?: unknown }).name;
  if (typeof own === 'string') names.add(own);
  return names;
}

/**
 * The client error's `type`; for an error without one (a merchant's own `CheckoutGateway`, an
 * older client), the type of the client class it is named as. `undefined`: not a gateway error.
 */
export function gatewayErrorType(error: object): GatewayErrorType | undefined {
  const own = (error as { type?: unknown }).type;
  if (TYPES.has(own)) return own as GatewayErrorType;
  const names = classNames(error);
  return TYPE_OF_CLASS.find(([name]) => names.has(name))?.[1];
}

const maskedMessage = (message: unknown) =>
  typeof message === 'string' && message.length > 0 && message.length <= 300
    ? message
    : 'The payment service did not accept the request.';

const DECLINE_FALLBACK = 'Your card was declined. Please try another card.';

/** Sorts a client error into what the browser should be told and whether to reconcile. */
export function classifyGatewayError(error: unknown): GatewayFailure {
  if (!error || typeof error !== 'object') return { kind: 'not_gateway' };
  const type = gatewayErrorType(error);
  const e = error as {
    message?: unknown;
    code?: unknown;
    originalErrorCode?: unknown;
    statusCode?: unknown;
    raw?: unknown;
  };
  const message =
    typeof e.message === 'string' && e.message.length > 0 ? e.message : DECLINE_FALLBACK;
  const originalErrorCode =
    typeof e.originalErrorCode === 'string' && e.originalErrorCode
      ? e.originalErrorCode
      : undefined;
  if (type === 'duplicate_reference') return { kind: 'duplicate' };
  // A path the gateway does not have (a base URL with /pg/api appended): nothing was processed.
  // The gateway answers every decision it makes on a real endpoint, never with a bare 404.
  if (e.statusCode === 404 && !originalErrorCode && (e.code === -1 || e.code === undefined))
    return { kind: 'misconfigured', reason: 'no_endpoint' };
  // The client follows no redirects: the gateway answers its API itself, never with a 3xx.
  if (typeof e.statusCode === 'number' && e.statusCode >= 300 && e.statusCode < 400)
    return { kind: 'misconfigured', reason: 'redirected' };
  switch (type) {
    case 'connection':
      if (causeCode(error)) return { kind: 'misconfigured', reason: 'wrong_host' };
      return { kind: 'outcome_unknown' };
    case 'unexpected_response':
      if (typeof e.statusCode === 'number' && e.statusCode < 500 && looksLikePage(e.raw))
        return { kind: 'misconfigured', reason: 'wrong_host' };
      return { kind: 'outcome_unknown' };
    // Refused by the gateway, or by our own client before sending (a field breaks its rules).
    case 'request_rejected':
    case 'invalid_request':
      return { kind: 'rejected', message: maskedMessage(e.message), originalErrorCode };
    case 'authentication_failed':
      return { kind: 'authentication_failed', message, originalErrorCode };
    case 'card_declined':
      return {
        kind: 'declined',
        message,
        code: typeof e.code === 'number' ? e.code : -1,
        originalErrorCode,
      };
    case 'timeout':
      return { kind: 'outcome_unknown' };
    case 'signature':
      return { kind: 'misconfigured', reason: 'credentials' };
    case 'gateway_error':
      if (typeof e.statusCode === 'number' && e.statusCode >= 500)
        return { kind: 'outcome_unknown' };
      if (e.code === 3) return { kind: 'authentication_failed', message, originalErrorCode };
      // fin030 is the processor's "format error": a refused request, not a decided payment.
      if (originalErrorCode === 'fin030')
        return { kind: 'rejected', message: maskedMessage(e.message), originalErrorCode };
      // Other codes (19: no payment page; 1 or 7 as failures) are not declines of a card.
      if (e.code === -1) return { kind: 'declined', message, code: -1, originalErrorCode };
      return { kind: 'unavailable' };
    default:
      return { kind: 'not_gateway' };
  }
}

const FIXES = {
  no_endpoint:
    'the gateway answered "no such endpoint" (HTTP 404): gateway.baseUrl must be the gateway’s host only (e.g. https://gateway.example), without /pg/api, which the client adds',
  credentials:
    'the gateway refused the signature or token (HTTP 403): check gateway.token and gateway.secret (and that they belong to this environment)',
  wrong_host:
    'gateway.baseUrl does not reach the gateway (no such host, another site, or its certificate is not the gateway’s): set it to the gateway’s host, e.g. https://gateway.example, or the sandbox’s URL in development',
  redirected:
    'the gateway answered a redirect: gateway.baseUrl must be its exact https URL (an http URL of a live gateway is redirected, and card data must never travel over http)',
} as const satisfies Record<SetupFaultReason, string>;

/**
 * A setup fault as the browser's `misconfigured` (never a decline), said once, loudly, with
 * the setting to fix. `undefined` when the failure is not a setup fault.
 */
export function setupFault(
  ctx: SaidOnce,
  failure: GatewayFailure,
  error: unknown,
): CheckoutError | undefined {
  if (failure.kind !== 'misconfigured') return undefined;
  sayOnce(ctx, `gateway:${failure.reason}`, `pg-checkout setup error: ${FIXES[failure.reason]}`, {
    error,
  });
  return misconfigured();
}
