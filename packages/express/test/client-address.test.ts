import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { createCheckout } from '../src/index.js';
import { FakeGateway } from '@pg-checkout/test-helpers/fake-gateway';
import { card, SESSION_SECRET, SHOP_ORIGIN } from '@pg-checkout/test-helpers/checkout-app';

// Express's own: with no req.ip and no socket address, the router says what to set (trust proxy).

type Logged = [level: string, message: string, fields: Record<string, unknown>];
const collecting = (into: Logged[]) => ({
  info: (m: string, f?: Record<string, unknown>) => void into.push(['info', m, f ?? {}]),
  warn: (m: string, f?: Record<string, unknown>) => void into.push(['warn', m, f ?? {}]),
  error: (m: string, f?: Record<string, unknown>) => void into.push(['error', m, f ?? {}]),
});

describe('a request with no client address', () => {
  it('is a setup error said once, naming trust proxy; never a card failure, never sent', async () => {
    const logs: Logged[] = [];
    const gateway = new FakeGateway();
    const shop = express();
    shop.use(
      '/checkout',
      createCheckout({
        gateway,
        sessionSecret: SESSION_SECRET,
        webhookSecret: 'whsec-test',
        publicUrl: 'https://shop.test/checkout',
        allowedOrigins: [SHOP_ORIGIN],
        resolveOrder: () => ({ amount: 14_900, currency: 'ZAR', reference: 'unix-1' }),
        logger: collecting(logs),
      }),
    );
    // Behind a proxy on a unix socket the server sees no client address at all.
    const dir = mkdtempSync(join(tmpdir(), 'pg-unix-'));
    const socketPath = join(dir, 'shop.sock');
    const server = shop.listen(socketPath);
    await new Promise((resolve) => server.once('listening', resolve));
    const post = () =>
      new Promise<{ status: number; body: { code: string; message: string } }>(
        (resolve, reject) => {
          const req = httpRequest(
            {
              socketPath,
              path: '/checkout/payments',
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                origin: SHOP_ORIGIN,
                host: 'shop.test',
              },
            },
            (res) => {
              let text = '';
              res.on('data', (chunk) => (text += chunk));
              res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
            },
          );
          req.on('error', reject);
          req.end(JSON.stringify(card('4111111111111111')));
        },
      );
    try {
      const first = await post();
      const second = await post();
      for (const answer of [first, second]) {
        assert.equal(answer.status, 503);
        assert.equal(answer.body.code, 'misconfigured');
        assert.match(answer.body.message, /Nothing was charged/);
      }
      assert.deepEqual(gateway.calls, [], 'nothing reached the gateway');
      const said = logs.filter(([level, m]) => level === 'error' && /trust proxy/.test(m));
      assert.equal(said.length, 1, 'said once, loudly');
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
