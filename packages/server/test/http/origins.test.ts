import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { card, startAppOver } from '@pg-checkout/test-helpers/checkout-app';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { appForSuite } from '@pg-checkout/test-helpers/suite';

// Issue 12: behind a dev proxy (Vite) a refused origin was a silent 403.
overAdapters((adapter) => {
  const startApp = startAppOver(adapter);
  const warnings: [string, Record<string, unknown>][] = [];
  const app = appForSuite(adapter, {
    allowedOrigins: ['https://shop.test', 'http://localhost:5173'],
    logger: {
      info: () => undefined,
      warn: (message: string, fields?: Record<string, unknown>) =>
        void warnings.push([message, fields ?? {}]),
      error: () => undefined,
    },
  });

  describe('origins', () => {
    it('a refused origin is logged with what was seen and what is allowed', async () => {
      const refused = await app.call('POST', '/payments', card('4111111111111111'), {
        origin: 'http://localhost:3000',
      });
      assert.equal(refused.status, 403);
      const [message, fields] = warnings.find(([m]) => /origin is not allowed/.test(m))!;
      assert.match(message, /refused/);
      assert.equal(fields.origin, 'http://localhost:3000');
      assert.deepEqual(fields.allowed, ['https://shop.test', 'http://localhost:5173']);
    });

    it('an allowed origin other than publicUrl’s is worth one warning, not one per request', async () => {
      for (let i = 0; i < 3; i++) {
        const answer = await app.call('POST', '/payments', card('4111111111111111'), {
          origin: 'http://localhost:5173',
        });
        assert.equal(answer.body.status, 'approved');
      }
      const notes = warnings.filter(([m]) => /other than publicUrl/.test(m));
      assert.equal(notes.length, 1);
      assert.equal(notes[0]![1].origin, 'http://localhost:5173');
      assert.equal(notes[0]![1].publicUrl, 'https://shop.test/checkout');
    });
  });

  describe('the refusal warning', () => {
    it('lists each allowed origin once, also when the request’s own origin is publicUrl’s', async () => {
      const seen: Record<string, unknown>[] = [];
      const own = await startApp({
        allowedOrigins: undefined,
        logger: {
          info: () => undefined,
          warn: (message: string, fields?: Record<string, unknown>) =>
            void (/origin is not allowed/.test(message) && seen.push(fields ?? {})),
          error: () => undefined,
        },
      });
      try {
        // Behind a proxy that forwards https://shop.test, the page's own origin is publicUrl's.
        const answer = await new Promise<number>((resolve, reject) => {
          const url = new URL(`${own.url}/payments`);
          const req = httpRequest(
            {
              host: url.hostname,
              port: url.port,
              path: url.pathname,
              method: 'POST',
              headers: {
                host: 'shop.test',
                'x-forwarded-proto': 'https',
                origin: 'https://evil.test',
                'content-type': 'application/json',
              },
            },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode!));
            },
          );
          req.on('error', reject);
          req.end(JSON.stringify(card('4111111111111111')));
        });
        assert.equal(answer, 403);
        assert.deepEqual(seen[0]?.allowed, ['https://shop.test']);
      } finally {
        await own.close();
      }
    });
  });
});
