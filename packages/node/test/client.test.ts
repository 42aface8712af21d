import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inspect } from 'node:util';
import { CardDeclinedError, GatewayClient } from '../src/index.js';
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

describe('path parameters', () => {
  it('are URL-encoded, so a reference cannot change the path', async () => {
    const client = new GatewayClient({ token: TOKEN, secret: SECRET, baseUrl: gateway.url });
    const path = '/pg/api/v2/payment/lookup/merchantReference/a%2F..%2Fb%3Fc';
    gateway.on('GET', path, { json: samples.lookup });
    await client.lookups.byMerchantReference('a/../b?c');
    assert.equal(gateway.requests.at(-1)!.path, path);
  });
});
