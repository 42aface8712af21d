import { CheckoutError } from '../errors.js';
import type { Context } from '../setup/context.js';
import { classifyGatewayError, setupFault } from '../gateway/failures.js';
import { jsonAnswer, type HttpAnswer } from './exchange.js';
import { answerFor, type CoreErrorCode } from './answers.js';
import { pageRefusal } from './routes.js';

const answer = (status: number, code: string, message: string, headers?: Record<string, string>) =>
  jsonAnswer(status, { success: false, message, code }, headers);

/** A code's answer, its status and headers from the edge's one function. */
const coded = (code: CoreErrorCode, message: string, gatewayFailed?: true) => {
  const { status, headers } = answerFor({ code, ...(gatewayFailed ? { gatewayFailed } : {}) });
  return answer(status, code, message, headers);
};

/**
 * Every failure as `{ success: false, message, code }` JSON with its status; never a stack trace.
 * A `CheckoutError` carries its code's status (or the explicit one a merchant's hook gave it).
 * `where` names the route in the log of a 5xx.
 */
export function errorAnswer(
  ctx: Context,
  error: unknown,
  where: { method: string; path: string },
): HttpAnswer {
  if (error instanceof CheckoutError)
    return answer(error.status, error.code, error.message, error.headers);
  const failure = classifyGatewayError(error);
  const fault = setupFault(ctx, failure, error);
  if (fault) return answer(fault.status, fault.code, fault.message, fault.headers);
  let result: HttpAnswer;
  if (failure.kind === 'outcome_unknown') {
    result = coded(
      'gateway_timeout',
      'The payment service did not answer in time. Please try again shortly.',
    );
  } else if (failure.kind === 'unavailable') {
    // The gateway failed the call itself (Bad Gateway); the table's 503 is "could not be asked".
    result = coded(
      'gateway_unavailable',
      'The payment service is unavailable. Please try again shortly.',
      true,
    );
  } else if (failure.kind === 'rejected') {
    // The gateway (or our client's schema) refused the request as malformed: nothing was created.
    return coded('invalid_request', `The payment was not accepted: ${failure.message}`);
  } else if (failure.kind === 'declined' || failure.kind === 'authentication_failed') {
    return coded(
      failure.kind === 'declined' ? 'card_declined' : 'authentication_failed',
      failure.message,
    );
  } else {
    // No word about charges here: this handler cannot know whether the gateway was called.
    result = coded(
      'internal_error',
      'Something went wrong on our side. Please wait a moment and check your order before trying again.',
    );
  }
  ctx.logger.error('checkout request failed', { ...where, status: result.status, error });
  return result;
}

/** A path under the mount that names no route. */
export const noSuchRoute = () => new CheckoutError('not_found', 'No such checkout route.');

/** A bank's post refused before its route ran: the completion page, keeping the reader's `Connection: close`. */
export function pageFailure(error: unknown): HttpAnswer {
  const page = pageRefusal(error);
  const connection = error instanceof CheckoutError ? error.headers.Connection : undefined;
  return connection ? { ...page, headers: { ...page.headers, Connection: connection } } : page;
}
