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
  | { kind: 'misconfigured' }
  | { kind: 'not_gateway' };

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

const maskedMessage = (message: unknown) =>
  typeof message === 'string' && message.length > 0 && message.length <= 300
    ? message
    : 'The payment service did not accept the request.';

const DECLINE_FALLBACK = 'Your card was declined. Please try another card.';

/** Sorts a client error into what the browser should be told and whether to reconcile. */
export function classifyGatewayError(error: unknown): GatewayFailure {
  if (!error || typeof error !== 'object') return { kind: 'not_gateway' };
  const names = classNames(error);
  const e = error as {
    message?: unknown;
    code?: unknown;
    originalErrorCode?: unknown;
    statusCode?: unknown;
  };
  const message =
    typeof e.message === 'string' && e.message.length > 0 ? e.message : DECLINE_FALLBACK;
  const originalErrorCode =
    typeof e.originalErrorCode === 'string' && e.originalErrorCode
      ? e.originalErrorCode
      : undefined;
  if (names.has('DuplicateReferenceError')) return { kind: 'duplicate' };
  if (names.has('RequestRejectedError'))
    return { kind: 'rejected', message: maskedMessage(e.message), originalErrorCode };
  if (names.has('ThreeDSecureFailedError'))
    return { kind: 'authentication_failed', message, originalErrorCode };
  if (names.has('CardDeclinedError')) {
    return {
      kind: 'declined',
      message,
      code: typeof e.code === 'number' ? e.code : -1,
      originalErrorCode,
    };
  }
  if (
    names.has('GatewayTimeoutError') ||
    names.has('GatewayConnectionError') ||
    names.has('UnexpectedResponseError')
  ) {
    return { kind: 'outcome_unknown' };
  }
  // Our own client refused to send it (a field breaks the gateway's rules): nothing was sent.
  if (names.has('InvalidRequestError'))
    return { kind: 'rejected', message: maskedMessage(e.message), originalErrorCode };
  if (names.has('SignatureError')) return { kind: 'misconfigured' };
  if (names.has('GatewayError')) {
    if (typeof e.statusCode === 'number' && e.statusCode >= 500) return { kind: 'outcome_unknown' };
    if (e.code === 3) return { kind: 'authentication_failed', message, originalErrorCode };
    // fin030 is the processor's "format error": a refused request, not a decided payment.
    if (originalErrorCode === 'fin030')
      return { kind: 'rejected', message: maskedMessage(e.message), originalErrorCode };
    // Other codes (19: no payment page; 1 or 7 as failures) are not declines of a card.
    if (e.code === -1) return { kind: 'declined', message, code: -1, originalErrorCode };
    return { kind: 'unavailable' };
  }
  return { kind: 'not_gateway' };
}
