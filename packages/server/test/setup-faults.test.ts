import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayClient } from '@pg-checkout/node';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { createCheckoutHandler, type CheckoutHandlerOptions } from '../src/index.js';
import { cardBody } from '@pg-checkout/test-helpers/cards';

// Each credential and URL mistake a merchant makes, on the first payment of an order (when the
// order is read back from the gateway before anything is sent): a setup fault, told as one.

type Logged = [level: string, message: string];
const PUBLIC = 'https://shop.test/checkout';
let orders = 0;

const payment = () =>
  new Request(`${PUBLIC}/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://shop.test' },
    body: JSON.stringify(cardBody('4111111111111111')),
  });

/** Two payments of two orders through a handler set up with `gateway`; the answers and the log. */
async function payTwice(
  gateway: CheckoutHandlerOptions['gateway'],
  extra: Partial<CheckoutHandlerOptions> = {},
) {
  const logs: Logged[] = [];
  const handler = createCheckoutHandler({
    gateway,
    webhookSecret: 'webhook-secret',
    publicUrl: PUBLIC,
    environment: 'development',
    resolveOrder: () => ({ amount: 2_500, currency: 'ZAR', reference: `setup-${++orders}` }),
    logger: {
      info: () => undefined,
      warn: (message) => void logs.push(['warn', message]),
      error: (message) => void logs.push(['error', message]),
    },
    ...extra,
  });
  const answers = [];
  for (let i = 0; i < 2; i++) {
    const response = await handler(payment(), { clientAddress: '203.0.113.9' });
    answers.push({ status: response.status, body: (await response.json()) as { code: string } });
  }
  return { answers, logs };
}

function assertSetupFault(
  result: Awaited<ReturnType<typeof payTwice>>,
  setting: RegExp,
  what: string,
): void {
  for (const answer of result.answers) {
    assert.equal(answer.status, 503, `${what}: ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.code, 'misconfigured', what);
  }
  assert.equal(result.logs.length, 1, `${what}: one log line, got ${JSON.stringify(result.logs)}`);
  assert.equal(result.logs[0]![0], 'error');
  assert.match(result.logs[0]![1], setting, what);
}

/** A web server that is not the gateway (another site, a single-page app, a live gateway's http port). */
function otherSite(answer: (res: ServerResponse, port: number) => void): Promise<Server> {
  const server = createServer((_req, res) => answer(res, (server.address() as AddressInfo).port));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

describe('setup faults at the gateway: 503 misconfigured and one log line naming the setting', () => {
  let sandbox: Sandbox;
  const sites: Server[] = [];
  before(async () => {
    sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    for (const site of sites) {
      site.closeAllConnections();
      await new Promise((r) => site.close(r));
    }
    await sandbox.close();
  });

  const refusal = async (headers: Record<string, string>) =>
    (await fetch(`${sandbox.url}/pg/api/v2/util/validate`, { headers })).status;

  it('the sandbox refuses a wrong token and a wrong signature with 403, as the gateway does', async () => {
    assert.equal(await refusal({ 'x-token': 'wrong-token', 'x-signature': 'a'.repeat(64) }), 403);
    assert.equal(await refusal({ 'x-token': sandbox.token, 'x-signature': 'a'.repeat(64) }), 403);
  });

  it('a wrong token: gateway.token', async () => {
    const result = await payTwice({
      baseUrl: sandbox.url,
      token: 'wrong-token',
      secret: sandbox.secret,
    });
    assertSetupFault(result, /gateway\.token/, 'wrong token');
  });

  it('a wrong secret: gateway.secret', async () => {
    const result = await payTwice({
      baseUrl: sandbox.url,
      token: sandbox.token,
      secret: 'wrong-secret',
    });
    assertSetupFault(result, /gateway\.secret/, 'wrong secret');
  });

  it('a wrong host that answers web pages (another site, a single-page app): gateway.baseUrl', async () => {
    const page = '<!doctype html><title>Shop</title><p>Welcome';
    const notFound = await otherSite((res) =>
      res.writeHead(404, { 'content-type': 'text/html' }).end(page),
    );
    const spa = await otherSite((res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end(page),
    );
    sites.push(notFound, spa);
    for (const site of [notFound, spa]) {
      const result = await payTwice({
        baseUrl: urlOf(site),
        token: sandbox.token,
        secret: sandbox.secret,
      });
      assertSetupFault(result, /gateway\.baseUrl/, `wrong host ${urlOf(site)}`);
    }
  });

  it('a host name that does not exist: gateway.baseUrl', async () => {
    // What fetch throws for a name DNS does not know (no lookup leaves this machine in tests).
    const client = new GatewayClient({
      baseUrl: 'https://gateway.invalid',
      token: sandbox.token,
      secret: sandbox.secret,
      retries: 0,
      fetch: () =>
        Promise.reject(
          new TypeError('fetch failed', {
            cause: Object.assign(new Error('getaddrinfo ENOTFOUND gateway.invalid'), {
              code: 'ENOTFOUND',
            }),
          }),
        ),
    });
    assertSetupFault(await payTwice(client), /gateway\.baseUrl/, 'unknown host');
  });

  it('/pg/api appended to the base URL of a client: gateway.baseUrl', async () => {
    const client = new GatewayClient({
      baseUrl: `${sandbox.url}/pg/api`,
      token: sandbox.token,
      secret: sandbox.secret,
      retries: 0,
    });
    assertSetupFault(await payTwice(client), /gateway\.baseUrl.*without \/pg\/api/, '/pg/api');
  });

  it('an http URL of a live gateway, which redirects to https: gateway.baseUrl', async () => {
    const port80 = await otherSite((res, port) =>
      res.writeHead(301, { location: `https://127.0.0.1:${port}/` }).end(),
    );
    sites.push(port80);
    const result = await payTwice({
      baseUrl: urlOf(port80),
      token: sandbox.token,
      secret: sandbox.secret,
    });
    assertSetupFault(result, /gateway\.baseUrl.*https/, 'redirect');
  });

  it('an http URL in production: refused at setup, nothing is sent, gateway.baseUrl', async () => {
    let reached = 0;
    const gateway = await otherSite((res) => {
      reached += 1;
      res.writeHead(404).end();
    });
    sites.push(gateway);
    // Not a loopback name, yet a connection to it would stay on this machine (and be counted).
    const port = (gateway.address() as AddressInfo).port;
    await assert.rejects(
      payTwice(
        { baseUrl: `http://0.0.0.0:${port}`, token: sandbox.token, secret: sandbox.secret },
        { environment: 'production' },
      ),
      /`gateway\.baseUrl` must use https in production \(got http:\/\/0\.0\.0\.0:\d+\)/,
    );
    assert.equal(reached, 0);
  });

  it('the right settings still pay (the faults above are not the sandbox refusing everything)', async () => {
    const result = await payTwice({
      baseUrl: sandbox.url,
      token: sandbox.token,
      secret: sandbox.secret,
    });
    assert.deepEqual(
      result.answers.map((a) => a.status),
      [200, 200],
    );
    assert.deepEqual(result.logs, []);
  });
});

describe('production is https end to end, whatever form the gateway takes', () => {
  const LAN = 'http://192.168.1.20:8787';
  const setUp =
    (gateway: CheckoutHandlerOptions['gateway'], environment = 'production') =>
    () =>
      createCheckoutHandler({
        gateway,
        webhookSecret: 'webhook-secret',
        publicUrl: PUBLIC,
        environment: environment as 'production',
        resolveOrder: () => ({ amount: 2_500, currency: 'ZAR', reference: 'https-1' }),
      });
  const client = (baseUrl: string) => new GatewayClient({ token: 't', secret: 's', baseUrl });
  /** A merchant's own gateway object: the client's methods, with or without a declared baseUrl. */
  const own = (baseUrl?: string) => {
    const inner = client('https://gateway.example');
    return {
      ...(baseUrl === undefined ? {} : { baseUrl }),
      payments: inner.payments,
      lookups: inner.lookups,
      foreign: inner.foreign,
      redirects: inner.redirects,
      cards: inner.cards,
      reconcile: (reference: string) => inner.reconcile(reference),
    } as unknown as CheckoutHandlerOptions['gateway'];
  };
  const httpFix = /`gateway\.baseUrl` must use https in production.*only loopback/;

  it('credentials with an http base URL on the network: refused, the message says the fix', () => {
    assert.throws(setUp({ token: 't', secret: 's', baseUrl: LAN }), httpFix);
  });

  it('a GatewayClient pointed at http on the network: refused at setup', () => {
    assert.throws(
      setUp(client(LAN)),
      /the client given as `gateway` sends to http:\/\/192\.168\.1\.20:8787; create it with an https baseUrl/,
    );
    assert.throws(
      setUp(
        new GatewayClient({
          token: 't',
          secret: 's',
          environment: 'production',
          baseUrls: { production: 'http://gateway.example' },
        }),
      ),
      httpFix,
    );
  });

  it('a merchant’s own gateway object: refused without a baseUrl, judged by the one it declares', () => {
    assert.throws(setUp(own()), /`gateway\.baseUrl` is unknown.*declare `readonly baseUrl/);
    assert.throws(setUp(own(LAN)), httpFix);
    assert.doesNotThrow(setUp(own('https://gateway.example')));
    assert.doesNotThrow(setUp(own(), 'development'), 'development takes any gateway');
  });

  it('https and loopback (127.0.0.0/8, ::1, localhost) stay allowed, in every form', () => {
    for (const baseUrl of [
      'https://gateway.example',
      'http://127.0.0.1:8787',
      'http://127.3.2.1:8787',
      'http://[::1]:8787',
      'http://localhost:8787',
    ]) {
      assert.doesNotThrow(setUp({ token: 't', secret: 's', baseUrl }), baseUrl);
      assert.doesNotThrow(setUp(client(baseUrl)), baseUrl);
    }
    assert.doesNotThrow(setUp(client(LAN), 'development'));
  });
});
