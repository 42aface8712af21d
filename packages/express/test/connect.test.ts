import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request, Response } from 'express';
import { createCheckout } from '../src/index.js';
import { FakeGateway } from '@pg-checkout/test-helpers/fake-gateway';
import { card, SESSION_SECRET } from '@pg-checkout/test-helpers/checkout-app';

// Vite's and Nuxt's dev servers are Connect stacks: a mounted handler gets Node's own request and
// response (no Express methods), with the mount path stripped from req.url.
function connectLike(
  mount: string,
  handle: (req: Request, res: Response, next: () => void) => void,
) {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    if (!req.url!.startsWith(`${mount}/`)) {
      res.statusCode = 404;
      return res.end('not mounted');
    }
    req.url = req.url!.slice(mount.length);
    handle(req as Request, res as Response, () => {
      res.statusCode = 404;
      res.end('fell through');
    });
  });
}

describe('mounted in a plain Connect stack (Vite, Nuxt)', () => {
  it('answers the browser API: config, a card payment, bad JSON as 400, an unknown route as 404', async () => {
    const gateway = new FakeGateway();
    const server = connectLike(
      '/checkout',
      createCheckout({
        gateway,
        sessionSecret: SESSION_SECRET,
        webhookSecret: 'whsec',
        publicUrl: 'http://127.0.0.1/checkout',
        resolveOrder: () => ({
          amount: 14_900,
          currency: 'ZAR',
          reference: `connect-${Date.now()}`,
        }),
      }) as unknown as (req: Request, res: Response, next: () => void) => void,
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/checkout`;
    const origin = new URL(base).origin;
    try {
      const config = await fetch(`${base}/config`);
      assert.equal(config.status, 200);
      assert.equal(((await config.json()) as { amount: number }).amount, 14_900);
      const post = (body: string) =>
        fetch(`${base}/payments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin },
          body,
        });
      const paid = await post(JSON.stringify(card('4111111111111111')));
      const answer = (await paid.json()) as { status: string; code?: string };
      assert.equal(paid.status, 200, JSON.stringify(answer));
      assert.equal(answer.status, 'approved');
      const broken = await post('{"card":');
      assert.equal(broken.status, 400);
      assert.equal(((await broken.json()) as { code: string }).code, 'invalid_json');
      const unknown = await fetch(`${base}/nope`);
      assert.equal(unknown.status, 404);
      assert.equal(((await unknown.json()) as { code: string }).code, 'not_found');
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
