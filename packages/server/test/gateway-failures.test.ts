/**
 * Gateway failures are sorted by the client error's `type`, never by its class name; an error
 * without a `type` (a merchant's own gateway port) is read by the client class it is named as.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  CardDeclinedError,
  DuplicateReferenceError,
  GatewayConnectionError,
  GatewayError,
  GatewayTimeoutError,
  InvalidRequestError,
  RequestRejectedError,
  SignatureError,
  ThreeDSecureFailedError,
  UnexpectedResponseError,
  WebhookVerificationError,
} from '@pg-checkout/node';
import { classifyGatewayError, gatewayErrorType } from '../src/gateway/failures.js';

describe('gateway failures switched on type', () => {
  it("gives every client error class its own type, the duplicate's beside its parent's", () => {
    const types = [
      new GatewayError('x'),
      new CardDeclinedError('x'),
      new ThreeDSecureFailedError('x'),
      new RequestRejectedError('x'),
      new DuplicateReferenceError('x'),
      new SignatureError('x'),
      new GatewayConnectionError('x'),
      new GatewayTimeoutError('x'),
      new InvalidRequestError('x', []),
      new UnexpectedResponseError('x', {}),
    ].map((e) => e.type);
    assert.deepEqual(types, [
      'gateway_error',
      'card_declined',
      'authentication_failed',
      'request_rejected',
      'duplicate_reference',
      'signature',
      'connection',
      'timeout',
      'invalid_request',
      'unexpected_response',
    ]);
    assert.equal(new WebhookVerificationError('x', 'malformed').type, 'webhook_verification');
  });

  it('reads the type, whatever the class is called', () => {
    // A timeout named as the base class: its name would read "unavailable", its type says unknown.
    const timeout = Object.assign(new Error('no answer'), {
      name: 'GatewayError',
      type: 'timeout',
    });
    assert.deepEqual(classifyGatewayError(timeout), { kind: 'outcome_unknown' });
    const declined = {
      type: 'card_declined',
      message: 'Declined.',
      code: -1,
      originalErrorCode: 'fin051',
    };
    assert.deepEqual(classifyGatewayError(declined), {
      kind: 'declined',
      message: 'Declined.',
      code: -1,
      originalErrorCode: 'fin051',
    });
    assert.deepEqual(classifyGatewayError({ type: 'duplicate_reference' }), { kind: 'duplicate' });
    assert.deepEqual(classifyGatewayError({ type: 'signature' }), {
      kind: 'misconfigured',
      reason: 'credentials',
    });
  });

  it("falls back to the client's class names for an error without a type", () => {
    class CardDeclinedError extends Error {
      override name = 'CardDeclinedError';
      code = -1;
    }
    const own = new CardDeclinedError('Insufficient funds.');
    assert.equal(gatewayErrorType(own), 'card_declined');
    assert.equal(classifyGatewayError(own).kind, 'declined');
    const timeout = Object.assign(new Error('slow'), { name: 'GatewayTimeoutError' });
    assert.deepEqual(classifyGatewayError(timeout), { kind: 'outcome_unknown' });
    // A `type` of some other vocabulary is not ours: the name decides.
    const other = Object.assign(new Error('x'), {
      name: 'RequestRejectedError',
      type: 'api_error',
    });
    assert.equal(classifyGatewayError(other).kind, 'rejected');
  });

  it('leaves errors that are not the gateway alone', () => {
    assert.deepEqual(classifyGatewayError(new Error('bug')), { kind: 'not_gateway' });
    assert.deepEqual(classifyGatewayError({ type: 'something_else' }), { kind: 'not_gateway' });
    assert.deepEqual(classifyGatewayError(new WebhookVerificationError('x', 'malformed')), {
      kind: 'not_gateway',
    });
    assert.deepEqual(classifyGatewayError('text'), { kind: 'not_gateway' });
  });

  it('still reads a wrong host off a connection error by its cause', () => {
    const cause = { code: 'ENOTFOUND' };
    const error = new GatewayConnectionError('fetch failed', { cause: { cause } });
    assert.deepEqual(classifyGatewayError(error), { kind: 'misconfigured', reason: 'wrong_host' });
    assert.deepEqual(classifyGatewayError(new GatewayConnectionError('reset')), {
      kind: 'outcome_unknown',
    });
  });
});
