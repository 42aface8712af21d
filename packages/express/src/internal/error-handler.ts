import type { ErrorRequestHandler } from 'express';
import { CheckoutError } from '../errors.js';
import type { Context } from './context.js';
import { classifyGatewayError } from './gateway-errors.js';
import { sendJson } from './guards.js';

interface BodyParserError {
  type?: string;
  status?: number;
  statusCode?: number;
}

const PARSER_ERRORS: Record<string, [number, string, string]> = {
  'entity.parse.failed': [400, 'invalid_json', 'The request body is not valid JSON.'],
  'entity.too.large': [413, 'payload_too_large', 'The request body is too large.'],
  'encoding.unsupported': [
    415,
    'unsupported_media_type',
    'The request body encoding is not supported.',
  ],
  'charset.unsupported': [
    415,
    'unsupported_media_type',
    'The request body charset is not supported.',
  ],
  'request.aborted': [400, 'invalid_request', 'The request was aborted.'],
  'parameters.too.many': [413, 'payload_too_large', 'The request has too many parameters.'],
};

/** Turns every error into `{ success: false, message, code }` JSON; never a stack trace. */
export function errorHandler(ctx: Context): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    let status = 500;
    let code = 'internal_error';
    // No word about charges here: this handler cannot know whether the gateway was called.
    let message =
      'Something went wrong on our side. Please wait a moment and check your order before trying again.';
    if (error instanceof CheckoutError) {
      ({ status, code, message } = error);
      res.set(error.headers);
    } else if (
      error &&
      typeof error === 'object' &&
      typeof (error as BodyParserError).type === 'string' &&
      PARSER_ERRORS[(error as BodyParserError).type!]
    ) {
      [status, code, message] = PARSER_ERRORS[(error as BodyParserError).type!]!;
    } else {
      const failure = classifyGatewayError(error);
      if (failure.kind === 'outcome_unknown') {
        [status, code, message] = [
          504,
          'gateway_timeout',
          'The payment service did not answer in time. Please try again shortly.',
        ];
      } else if (failure.kind === 'unavailable' || failure.kind === 'misconfigured') {
        [status, code, message] = [
          502,
          'gateway_unavailable',
          'The payment service is unavailable. Please try again shortly.',
        ];
      } else if (failure.kind === 'rejected') {
        // The gateway (or our client's schema) refused the request as malformed: nothing was created.
        [status, code, message] = [
          400,
          'invalid_request',
          `The payment was not accepted: ${failure.message}`,
        ];
      } else if (failure.kind === 'declined' || failure.kind === 'authentication_failed') {
        [status, code, message] = [
          402,
          failure.kind === 'declined' ? 'card_declined' : 'authentication_failed',
          failure.message,
        ];
      } else {
        const bodyError = error as BodyParserError;
        const httpStatus = bodyError?.status ?? bodyError?.statusCode;
        if (typeof httpStatus === 'number' && httpStatus >= 400 && httpStatus < 500) {
          [status, code, message] = [
            httpStatus,
            'invalid_request',
            'The request could not be read.',
          ];
        }
      }
      if (status >= 500)
        ctx.logger.error('checkout request failed', {
          path: req.path,
          method: req.method,
          status,
          error,
        });
    }
    sendJson(res, status, { success: false, message, code });
  };
}
