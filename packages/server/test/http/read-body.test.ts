import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readBody, DEFAULT_LIMITS, type BodySource } from '../../src/http/read-body.js';
import { CheckoutError } from '../../src/errors.js';

// The one request reader both adapters hand their requests to, read directly: limits, content
// types, bad JSON, a body an earlier parser produced, and when reading stops.

const limits = { ...DEFAULT_LIMITS, json: 16 * 1024 };
const bytes = (text: string) => new TextEncoder().encode(text);

/** A source from headers and chunks; `pulled` counts the chunks the reader asked for. */
function source(
  headers: Record<string, string>,
  chunks: (string | Uint8Array)[] = [],
  as: 'stream' | 'iterable' = 'stream',
): BodySource & { pulled: () => number; cancelled: () => boolean } {
  let pulled = 0;
  let cancelled = false;
  const data = chunks.map((c) => (typeof c === 'string' ? bytes(c) : c));
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = data[pulled++];
        if (next) controller.enqueue(next);
        else controller.close();
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  ); // pulled only when read
  const iterable: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: async () =>
        pulled < data.length
          ? { done: false, value: data[pulled++]! }
          : { done: true, value: undefined },
    }),
  };
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    header: (name) => lower[name.toLowerCase()],
    bytes: as === 'stream' ? stream : iterable,
    pulled: () => pulled,
    cancelled: () => cancelled,
  };
}

async function refused(promise: Promise<unknown>): Promise<CheckoutError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof CheckoutError, String(error));
    return error;
  }
  assert.fail('the reader accepted the body');
}

const JSON_TYPE = { 'content-type': 'application/json' };

describe('readBody: JSON', () => {
  it('reads an object, an array, and a blank body as {}', async () => {
    assert.deepEqual(await readBody('json', source(JSON_TYPE, ['{"a":', '1}']), limits), { a: 1 });
    assert.deepEqual(await readBody('json', source(JSON_TYPE, ['[1]']), limits), [1]);
    assert.deepEqual(await readBody('json', source(JSON_TYPE, [' \n']), limits), {});
  });

  it('refuses bad JSON, a bare value and a byte order mark with 400 invalid_json', async () => {
    for (const text of ['{"card":', '"text"', '42', '\uFEFF{}']) {
      const error = await refused(readBody('json', source(JSON_TYPE, [text]), limits));
      assert.equal(error.status, 400, text);
      assert.equal(error.code, 'invalid_json', text);
    }
  });

  it('refuses another content type, charset or a compressed body with 415', async () => {
    const cases: Record<string, string>[] = [
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/json; charset=latin1' },
      { ...JSON_TYPE, 'content-encoding': 'gzip' },
    ];
    for (const headers of cases) {
      const body = source(headers, ['{}']);
      const error = await refused(readBody('json', body, limits));
      assert.equal(error.status, 415, JSON.stringify(headers));
      assert.equal(error.code, 'unsupported_media_type');
      assert.equal(body.pulled(), 0, 'nothing read');
    }
  });

  it('a POST without a content type has no body (confirm and cancel send none)', async () => {
    assert.equal(await readBody('json', source({}, []), limits), undefined);
  });

  it('a Content-Length over the limit is 413 before a byte is read, the connection closed', async () => {
    const body = source({ ...JSON_TYPE, 'content-length': String(16 * 1024 + 1) }, ['{}']);
    const error = await refused(readBody('json', body, limits));
    assert.equal(error.status, 413);
    assert.equal(error.code, 'payload_too_large');
    assert.equal(error.headers.Connection, 'close');
    assert.equal(body.pulled(), 0);
  });

  for (const as of ['stream', 'iterable'] as const) {
    it(`a chunked ${as} over the limit stops at the chunk that passes it`, async () => {
      const chunk = 'x'.repeat(4 * 1024);
      const body = source(
        JSON_TYPE,
        Array.from({ length: 10 }, () => chunk),
        as,
      );
      const error = await refused(readBody('json', body, limits));
      assert.equal(error.status, 413);
      assert.equal(error.headers.Connection, 'close');
      assert.equal(body.pulled(), 5, 'the rest is never read');
      if (as === 'stream') assert.equal(body.cancelled(), true);
    });
  }

  it('a stream that fails is 400 invalid_request', async () => {
    const failing: BodySource = {
      header: (name) => (name === 'content-type' ? 'application/json' : undefined),
      bytes: new ReadableStream({
        pull: (controller) => controller.error(new Error('socket hang up')),
      }),
    };
    const error = await refused(readBody('json', failing, limits));
    assert.equal(error.status, 400);
    assert.equal(error.code, 'invalid_request');
  });
});

describe('readBody: a body an earlier parser produced', () => {
  const parsed = (value: unknown, headers = JSON_TYPE): BodySource => ({
    header: (name) => (headers as Record<string, string>)[name],
    bytes: null,
    parsed: { value },
  });

  it('an object is used as it is; text or bytes are parsed as JSON', async () => {
    assert.deepEqual(await readBody('json', parsed({ a: 1 }), limits), { a: 1 });
    assert.deepEqual(await readBody('json', parsed('{"a":2}'), limits), { a: 2 });
    assert.deepEqual(await readBody('json', parsed(bytes('{"a":3}')), limits), { a: 3 });
  });

  it('text that is not a JSON object is 400; text of another type 415', async () => {
    assert.equal((await refused(readBody('json', parsed('"x"'), limits))).code, 'invalid_json');
    const error = await refused(
      readBody('json', parsed('a=1', { 'content-type': 'text/plain' }), limits),
    );
    assert.equal(error.status, 415);
  });

  it('form and raw routes take what the parser made', async () => {
    const value = bytes('{"paymentReference":"x"}');
    assert.equal(await readBody('raw', parsed(value), limits), value);
    assert.deepEqual(await readBody('form', parsed({ cres: 'abc' }), limits), { cres: 'abc' });
  });
});

describe('readBody: forms and raw bodies', () => {
  const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

  it('reads a bank form in UTF-8 or ISO-8859-1', async () => {
    assert.deepEqual(await readBody('form', source(FORM, ['cres=a%20b&MD=1']), limits), {
      cres: 'a b',
      MD: '1',
    });
    const latin1 = source({ 'content-type': `${FORM['content-type']}; charset=ISO-8859-1` }, [
      new Uint8Array([0x50, 0x61, 0x52, 0x65, 0x73, 0x3d, 0xe9, 0x80]),
    ]);
    assert.deepEqual(await readBody('form', latin1, limits), { PaRes: '\u00e9\u0080' });
  });

  it('more than 20 fields is 413; another charset 415; another type no fields', async () => {
    const fields = Array.from({ length: 21 }, (_, i) => `f${i}=1`).join('&');
    const many = await refused(readBody('form', source(FORM, [fields]), limits));
    assert.equal(many.status, 413);
    assert.equal(many.message, 'The request has too many parameters.');
    const charset = { 'content-type': `${FORM['content-type']}; charset=utf-16` };
    assert.equal((await refused(readBody('form', source(charset, ['a=1']), limits))).status, 415);
    assert.deepEqual(await readBody('form', source(JSON_TYPE, ['{}']), limits), {});
  });

  it('a form over 64 KiB and a webhook over 256 KiB are 413', async () => {
    const form = source(FORM, ['a='.padEnd(64 * 1024 + 1, 'x')]);
    assert.equal((await refused(readBody('form', form, limits))).status, 413);
    const raw = source(JSON_TYPE, ['x'.repeat(256 * 1024), 'x']);
    assert.equal((await refused(readBody('raw', raw, limits))).status, 413);
  });

  it('a webhook is its exact bytes, whatever the content type', async () => {
    const body = await readBody(
      'raw',
      source({ 'content-type': 'text/plain' }, ['{"a"', ':1}']),
      limits,
    );
    assert.deepEqual(body, bytes('{"a":1}'));
  });
});
