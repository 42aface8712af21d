import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, type AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { CardDeclinedError, GatewayClient, GatewayConnectionError } from '../src/index.js';
import { FakeGateway, SECRET, TOKEN, createRequest, samples } from './support/fake-gateway.js';

const gateway = new FakeGateway();
before(() => gateway.start());
after(() => gateway.close());

describe('logging and debug output', () => {
  it('logs one line per request, never a body, and warns on retries', async () => {
    const lines: string[] = [];
    const logger = {
      debug: (m: string, meta?: Record<string, unknown>) =>
        lines.push(`debug ${m} ${JSON.stringify(meta)}`),
      warn: (m: string, meta?: Record<string, unknown>) =>
        lines.push(`warn ${m} ${JSON.stringify(meta)}`),
    };
    const client = new GatewayClient({
      token: TOKEN,
      secret: SECRET,
      baseUrl: gateway.url,
      logger,
      retryDelayMs: 1,
    });
    gateway.on('POST', '/pg/api/v2/payment/create', { json: samples.approved });
    gateway.on('GET', '/pg/api/v2/payment/PG-1', [
      { status: 503, text: 'busy' },
      { json: samples.lookup },
    ]);
    await client.payments.create(createRequest);
    await client.lookups.payment('PG-1');
    assert.ok(lines.some((l) => l.startsWith('debug POST /pg/api/v2/payment/create -> 200')));
    assert.ok(lines.some((l) => l.startsWith('warn GET /pg/api/v2/payment/PG-1 failed')));
    const all = lines.join('\n');
    assert.doesNotMatch(all, /4111111111111111|"cvv"|Jane Doe/);
  });

  it('inspecting an error shows masked data only', async () => {
    const client = new GatewayClient({ token: TOKEN, secret: SECRET, baseUrl: gateway.url });
    gateway.on('POST', '/pg/api/v2/payment/create', {
      json: {
        ...samples.declined,
        echo: { creditCard: { number: '4111111111111111', cvv: '123' } },
        message: 'Card 4111111111111111 declined',
      },
    });
    const err = await client.payments.create(createRequest).catch((e: unknown) => e);
    assert.ok(err instanceof CardDeclinedError);
    const shown = inspect(err, { depth: 10 });
    assert.doesNotMatch(shown, /4111111111111111|'123'/);
    assert.match(shown, /411111XXXXXX1111/);
  });

  it('outcomes carry the masked answer as raw', async () => {
    const client = new GatewayClient({ token: TOKEN, secret: SECRET, baseUrl: gateway.url });
    gateway.on('POST', '/pg/api/v2/payment/create', {
      json: { ...samples.approved, card: { number: '4111111111111111' } },
    });
    const outcome = await client.payments.create(createRequest);
    assert.doesNotMatch(JSON.stringify(outcome), /4111111111111111/);
  });
});

describe('custom fetch', () => {
  it('sends every request through the given fetch', async () => {
    const seen: string[] = [];
    const fetchSpy: typeof fetch = (input, init) => {
      seen.push(`${init?.method} ${String(input)}`);
      return fetch(input, init);
    };
    const client = new GatewayClient({
      token: TOKEN,
      secret: SECRET,
      baseUrl: gateway.url,
      fetch: fetchSpy,
    });
    gateway.on('GET', '/pg/api/v2/util/validate', { json: { success: true, merchant: 'Shop' } });
    await client.validate();
    assert.deepEqual(seen, [`GET ${gateway.url}/pg/api/v2/util/validate`]);
  });
});

describe('exchanges, for tracing', () => {
  it('onExchange hears each exchange: method, url, status, attempt; nothing once removed', async () => {
    const client = new GatewayClient({ token: TOKEN, secret: SECRET, baseUrl: gateway.url });
    const heard: unknown[] = [];
    const stop = client.onExchange((exchange) => {
      heard.push(exchange);
      throw new Error('a broken listener changes nothing');
    });
    gateway.on('GET', '/pg/api/v2/util/validate', { json: { success: true, merchant: 'Shop' } });
    assert.equal((await client.validate()).merchant, 'Shop');
    assert.deepEqual(heard, [
      { method: 'GET', url: `${gateway.url}/pg/api/v2/util/validate`, status: 200, attempt: 0 },
    ]);
    const down = new GatewayClient({
      token: TOKEN,
      secret: SECRET,
      baseUrl: gateway.url,
      retries: 0,
      fetch: () => Promise.reject(new TypeError('connection refused')),
    });
    const unanswered: unknown[] = [];
    down.onExchange((exchange) => unanswered.push(exchange));
    await assert.rejects(down.validate(), GatewayConnectionError);
    assert.deepEqual(unanswered, [
      { method: 'GET', url: `${gateway.url}/pg/api/v2/util/validate`, attempt: 0 },
    ]);
    stop();
    await client.validate();
    assert.equal(heard.length, 1);
  });
});

describe('fetch as workerd calls it', () => {
  // workerd's fetch refuses any `this` but the global scope: "Illegal invocation".
  const realFetch = globalThis.fetch;
  const strictFetch = function (
    this: unknown,
    input: Parameters<typeof fetch>[0],
    init?: RequestInit,
  ) {
    if (this !== undefined && this !== globalThis)
      return Promise.reject(
        new TypeError('Illegal invocation: function called with incorrect `this` reference'),
      );
    return realFetch(input, init);
  } as typeof fetch;

  it('calls the global fetch unbound, so it pays where fetch checks its receiver', async () => {
    globalThis.fetch = strictFetch;
    try {
      const client = new GatewayClient({ token: TOKEN, secret: SECRET, baseUrl: gateway.url });
      gateway.on('GET', '/pg/api/v2/util/validate', { json: { success: true, merchant: 'Shop' } });
      await client.validate();
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('calls a given fetch unbound too', async () => {
    const client = new GatewayClient({
      token: TOKEN,
      secret: SECRET,
      baseUrl: gateway.url,
      fetch: strictFetch,
    });
    gateway.on('GET', '/pg/api/v2/util/validate', { json: { success: true, merchant: 'Shop' } });
    await client.validate();
  });

  it('names why the gateway could not be reached in the error message', async () => {
    const client = new GatewayClient({
      token: TOKEN,
      secret: SECRET,
      baseUrl: gateway.url,
      retries: 0,
      fetch: () => Promise.reject(new TypeError('Illegal invocation')),
    });
    const err = await client.validate().catch((e: unknown) => e);
    assert.ok(err instanceof GatewayConnectionError);
    assert.match(err.message, /could not reach the gateway at .*\(TypeError: Illegal invocation\)/);
  });

  it('keeps the error code of a refused connection in the message', async () => {
    // A port that was just free: nothing listens there.
    const spare = createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const { port } = spare.address() as AddressInfo;
    await new Promise((resolve) => spare.close(resolve));
    const client = new GatewayClient({
      token: TOKEN,
      secret: SECRET,
      baseUrl: `http://127.0.0.1:${port}`,
      retries: 0,
    });
    const err = await client.validate().catch((e: unknown) => e);
    assert.ok(err instanceof GatewayConnectionError);
    assert.match(err.message, /\(ECONNREFUSED\)/);
  });
});

describe('path parameters', () => {
  it('are URL-encoded, so a reference cannot change the path', async () => {
    const client = new GatewayClient({ token: TOKEN, secret: SECRET, baseUrl: gateway.url });
    const path = '/pg/api/v2/payment/lookup/merchantReference/a%2F..%2Fb%3Fc';
    gateway.on('GET', path, { json: samples.lookup });
    await client.lookups.byMerchantReference('a/../b?c');
    assert.equal(gateway.requests.at(-1)!.path, path);
  });
});
