/**
 * Statuses only at the edge: the core throws a code, one table answers its status and headers,
 * and a merchant's hook may still name a status of its own.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckoutErrorCode } from '@pg-checkout/protocol/browser';
import { CheckoutError, misconfigured, storeUnavailable } from '../src/errors.js';
import { errorAnswer } from '../src/http/errors.js';
import { STATUS_TABLE, type CoreErrorCode } from '../src/http/answers.js';
import type { RefundErrorCode } from '../src/use-cases/refundable.js';
import { RefundError } from '../src/use-cases/refundable.js';
import { createContext } from '../src/setup/context.js';
import { validateOptions } from '../src/setup/validate-options.js';
import { MemoryStore } from '../src/stores/memory.js';

const logged: unknown[] = [];
const logger = {
  info: () => undefined,
  warn: () => undefined,
  error: (...args: unknown[]) => void logged.push(args),
};
const ctx = createContext(
  validateOptions({
    gateway: { baseUrl: 'https://gateway.test', token: 't', secret: 's' },
    sessionSecret: 's'.repeat(32),
    publicUrl: 'https://shop.test/checkout',
    resolveOrder: () => ({ amount: 100, currency: 'ZAR', reference: 'o1' }),
    logger,
  }),
);
const where = { method: 'POST', path: '/payments' };

function answerOf(error: unknown) {
  const a = errorAnswer(ctx, error, where);
  return { status: a.status, headers: a.headers, body: JSON.parse(String(a.body)) as unknown };
}

// Compile time: a code of either union without a row makes `Missing` a code, and this line an error.
type Missing = Exclude<CheckoutErrorCode | RefundErrorCode, keyof typeof STATUS_TABLE>;
const everyCodeHasARow: [Missing] extends [never] ? true : false = true;

describe('the status table', () => {
  it('has a row for every code, each a status the edge can send', () => {
    assert.equal(everyCodeHasARow, true);
    for (const [code, row] of Object.entries(STATUS_TABLE)) {
      assert.ok(Number.isInteger(row.status), code);
      assert.ok(row.status >= 200 && row.status <= 599, `${code}: ${row.status}`);
    }
  });

  it('answers a thrown code with its row: rate_limited with its own Retry-After', () => {
    const error = new CheckoutError('rate_limited', 'Too many requests.', {
      retryAfterSeconds: 7,
    });
    assert.equal(error.status, 429);
    assert.deepEqual(error.headers, { 'Retry-After': '7' });
    const answer = answerOf(error);
    assert.equal(answer.status, 429);
    assert.equal(answer.headers['Retry-After'], '7');
    assert.deepEqual(answer.body, {
      success: false,
      message: 'Too many requests.',
      code: 'rate_limited',
    });
  });

  it('keeps the answers the core gave before, status for status, header for header', () => {
    const cases: [CheckoutError, number, Record<string, string>][] = [
      [storeUnavailable(new Error('down')), 503, { 'Retry-After': '5' }],
      [misconfigured(), 503, { 'Retry-After': '60' }],
      [new CheckoutError('temporarily_unavailable', 'checking'), 503, { 'Retry-After': '2' }],
      [
        new CheckoutError('gateway_unavailable', 'x', { retryAfterSeconds: 5 }),
        503,
        {
          'Retry-After': '5',
        },
      ],
      [new CheckoutError('gateway_timeout', 'x'), 504, {}],
      [new CheckoutError('conflict', 'x'), 409, {}],
      [new CheckoutError('already_paid', 'x'), 409, {}],
      [new CheckoutError('method_not_enabled', 'x'), 404, {}],
      [new CheckoutError('not_signed_in', 'x'), 401, {}],
      [new CheckoutError('forbidden', 'x'), 403, {}],
      [new CheckoutError('forbidden_origin', 'x'), 403, {}],
      [new CheckoutError('not_found', 'x'), 404, {}],
      [new CheckoutError('invalid_request', 'x'), 400, {}],
      [
        new CheckoutError('too_many_declines', 'x', { retryAfterSeconds: 42 }),
        429,
        {
          'Retry-After': '42',
        },
      ],
      [new RefundError('more_than_left', 'x', { left: 1 }), 409, {}],
      [new RefundError('gateway_unavailable', 'x'), 503, {}],
    ];
    for (const [error, status, headers] of cases) {
      const answer = answerOf(error);
      assert.equal(answer.status, status, error.code);
      assert.deepEqual(error.headers, headers, error.code);
      for (const [name, value] of Object.entries(headers))
        assert.equal(answer.headers[name], value, `${error.code} ${name}`);
    }
  });

  it("answers the memory store's full error as before: 503 service_busy, Retry-After 60", async () => {
    const store = new MemoryStore({ maxEntries: 1 });
    await store.set('a', '1', 60_000);
    const error = await store.setIfAbsent('b', '1', 60_000).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof CheckoutError);
    const answer = answerOf(error);
    assert.equal(answer.status, 503);
    assert.equal(answer.headers['Retry-After'], '60');
    assert.equal((answer.body as { code: string }).code, 'service_busy');
  });

  it('answers a code no row names (plain JavaScript) as a fault of ours, 500', () => {
    const Loose = CheckoutError as unknown as new (code: string, message: string) => CheckoutError;
    const error = new Loose('made_up', 'Something.');
    assert.equal(error.status, 500);
    assert.equal(answerOf(error).status, 500);
  });
});

describe("a merchant's four-argument CheckoutError", () => {
  it('answers its explicit status, code, message and headers', () => {
    const error = new CheckoutError(451, 'region_blocked', 'Not sold here.', { 'X-Why': 'law' });
    assert.equal(error.status, 451);
    assert.deepEqual(error.headers, { 'X-Why': 'law' });
    const answer = answerOf(error);
    assert.equal(answer.status, 451);
    assert.equal(answer.headers['X-Why'], 'law');
    assert.deepEqual(answer.body, {
      success: false,
      message: 'Not sold here.',
      code: 'region_blocked',
    });
  });

  it('wins over the table for a code the table knows, headers included', () => {
    const answer = answerOf(new CheckoutError(400, 'rate_limited', 'Slow down.'));
    assert.equal(answer.status, 400);
    assert.equal(answer.headers['Retry-After'], undefined);
    const error = new CheckoutError(409, 'not_found' satisfies CoreErrorCode, 'Gone.');
    assert.deepEqual(error.headers, {});
    assert.equal(answerOf(error).status, 409);
  });
});
