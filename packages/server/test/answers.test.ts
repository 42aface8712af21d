/**
 * Codes to HTTP in one function at the edge (`http/answers.ts`): the error answer, the state
 * answer and telemetry's outcome all read it, and nothing below `http/` names a status.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { PaymentState } from '@pg-checkout/protocol/browser';
import { CheckoutError } from '../src/index.js';
import { storeUnavailable } from '../src/errors.js';
import { answerFor, outcomeOf, STATUS_TABLE, successStatus } from '../src/http/answers.js';
import { MemoryStore } from '../src/stores/memory.js';

const failed = (code: string): PaymentState => ({
  success: false,
  status: 'failed',
  message: 'x',
  code: code as never,
});

describe('answerFor', () => {
  it("answers a payment state's status as the state answer always did", () => {
    const cases: [PaymentState, number][] = [
      [{ success: true, status: 'approved', reference: 'r', message: 'ok' }, 200],
      [{ success: true, status: 'pending', reference: 'r', message: 'wait' }, 200],
      [{ success: false, status: 'declined', message: 'no', code: 'card_declined' }, 402],
      [{ success: false, status: 'declined', message: 'no', code: 'authentication_failed' }, 402],
      [failed('already_paid'), 409],
      [failed('order_changed'), 409],
      [failed('amount_changed'), 409],
      [failed('authentication_cancelled'), 200],
      [failed('gateway_timeout'), 504],
      // Any other failure is the gateway's (502), not the table's "could not be asked" (503).
      [failed('gateway_unavailable'), 502],
      [failed('authentication_failed'), 502],
      [failed('internal_error'), 502],
    ];
    for (const [state, status] of cases)
      assert.equal(answerFor({ state }).status, status, JSON.stringify(state));
  });

  it('gives a code its row, Retry-After from the seconds the core knows, 500 to a code no row names', () => {
    assert.deepEqual(answerFor({ code: 'rate_limited', retryAfterSeconds: 7 }), {
      status: 429,
      headers: { 'Retry-After': '7' },
      outcome: 'rejected',
    });
    assert.equal(answerFor({ code: 'store_unavailable' }).headers['Retry-After'], '5');
    assert.equal(answerFor({ code: 'no_such_code' }).status, 500);
    assert.equal(answerFor({ code: 'gateway_unavailable' }).status, 503);
    assert.equal(answerFor({ code: 'gateway_unavailable', gatewayFailed: true }).status, 502);
  });

  it('turns the fact "nothing was sent" into the short Retry-After; the seconds the core knows win', () => {
    assert.deepEqual(answerFor({ code: 'gateway_unavailable' }).headers, {});
    assert.deepEqual(answerFor({ code: 'gateway_unavailable', nothingSent: true }).headers, {
      'Retry-After': '5',
    });
    const error = new CheckoutError('gateway_unavailable', 'down', { nothingSent: true });
    assert.deepEqual([error.status, error.headers], [503, { 'Retry-After': '5' }]);
    const known = { code: 'gateway_unavailable', nothingSent: true, retryAfterSeconds: 9 } as const;
    assert.equal(answerFor(known).headers['Retry-After'], '9');
    assert.equal(
      answerFor({ code: 'misconfigured', nothingSent: true }).headers['Retry-After'],
      '60',
    );
    for (const kind of ['ok', 'created', 'no_content', 'see_other'] as const)
      assert.equal(answerFor({ success: kind }).outcome, 'ok', kind);
    assert.deepEqual(
      (['ok', 'created', 'no_content', 'see_other'] as const).map((kind) => successStatus(kind)),
      [200, 201, 204, 303],
    );
  });

  it("answers a completion page's kind with the status its page always had", () => {
    const cases = {
      done: 200,
      checking: 200,
      rejected: 400,
      unknown: 404,
      unavailable: 503,
    } as const;
    for (const [page, status] of Object.entries(cases))
      assert.equal(answerFor({ page: page as keyof typeof cases }).status, status, page);
  });

  it("classifies an answer's outcome for telemetry: 402 declined, 429 rejected, 5xx a fault", () => {
    assert.equal(outcomeOf(200), 'ok');
    assert.equal(outcomeOf(409), 'ok');
    assert.equal(outcomeOf(402), 'declined');
    assert.equal(outcomeOf(429), 'rejected');
    assert.equal(outcomeOf(502), 'fault');
    assert.equal(outcomeOf(503), 'fault');
  });

  it("gives a code thrown without a sentence the edge's sentence", async () => {
    const store = new MemoryStore({ maxEntries: 1 });
    await store.set('a', '1', 60_000);
    const busy = await store.setIfAbsent('b', '2', 60_000).then(
      () => assert.fail('a full store took a new entry'),
      (error: unknown) => error,
    );
    assert.ok(busy instanceof CheckoutError);
    assert.equal(busy.message, STATUS_TABLE.service_busy.sentence);
    assert.match(busy.message, /not been charged/);
    const down = storeUnavailable(new Error('down'));
    assert.equal(down.message, STATUS_TABLE.store_unavailable.sentence);
    // A sentence of the core's own still wins.
    assert.equal(new CheckoutError('service_busy', 'Busy.').message, 'Busy.');
  });
});

describe('statuses at the edge', () => {
  it('no file below http/ builds a status-form error or names Retry-After', () => {
    const src = new URL('../src/', import.meta.url);
    const below = readdirSync(src, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts') && !f.startsWith('http/') && !f.startsWith('http\\'));
    assert.ok(below.length > 40, 'the source files were found');
    for (const file of below) {
      const text = readFileSync(new URL(file, src), 'utf8');
      assert.doesNotMatch(text, /new CheckoutError\(\s*\d/, file);
      assert.doesNotMatch(text, /Retry-After['"]\s*[:\]]/, file);
    }
  });
});

describe('the edge travels with CheckoutError', () => {
  it('a bundle that takes only CheckoutError from the package still answers its status', async () => {
    // `sideEffects` lets a bundler drop what is not used; the edge that gives an error its status
    // must stay, or `.status` would throw in a merchant's bundle that never mounts the handler.
    const result = await build({
      stdin: {
        contents:
          "import { CheckoutError } from './src/index.ts';\n" +
          "const e = new CheckoutError('rate_limited', 'x', { retryAfterSeconds: 3 });\n" +
          'export const seen = [e.status, e.headers, new CheckoutError("service_busy").message];\n',
        resolveDir: fileURLToPath(new URL('..', import.meta.url)),
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      conditions: ['pg-source'],
      external: ['ioredis', '@opentelemetry/api'],
      write: false,
      logLevel: 'silent',
    });
    const text = result.outputFiles[0]!.text;
    const { seen } = (await import(
      `data:text/javascript;base64,${Buffer.from(text).toString('base64')}`
    )) as { seen: [number, Record<string, string>, string] };
    assert.deepEqual(seen, [429, { 'Retry-After': '3' }, STATUS_TABLE.service_busy.sentence]);
  });
});
