import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CheckoutError } from '../../src/index.js';
import { card, startAppOver } from '@pg-checkout/test-helpers/checkout-app';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { appForSuite } from '@pg-checkout/test-helpers/suite';

overAdapters((adapter) => {
  const startApp = startAppOver(adapter);
  const app = appForSuite(adapter);

  describe('hostile browser input', () => {
    it('malformed JSON -> 400 invalid_json', async () => {
      const { status, body } = await app.call('POST', '/payments', undefined, { raw: '{"card":' });
      assert.equal(status, 400);
      assert.deepEqual(body, {
        success: false,
        message: 'The request body is not valid JSON.',
        code: 'invalid_json',
      });
    });

    it('wrong types name the field and never echo the card number', async () => {
      const cases: [unknown, RegExp][] = [
        [{ ...card('4111111111111111'), screenWidth: '1280' }, /Invalid screenWidth/],
        [card('4111111111111111', { expiryMonth: '12' }), /Invalid card/],
        [card('4111111111111111', { cvv: 123 }), /Invalid card/],
        [card('41111111111111112222'), /Invalid card/],
        [{}, /Invalid card/],
        [[1, 2], /Invalid/],
      ];
      for (const [body, message] of cases) {
        const answer = await app.call('POST', '/payments', body);
        assert.equal(answer.status, 400, JSON.stringify(answer.body));
        assert.equal(answer.body.code, 'invalid_request');
        assert.match(answer.body.message, message);
        assert.ok(!JSON.stringify(answer.body).includes('4111111111111111'));
      }
    });

    it('huge bodies -> 413, non-JSON content types -> 415', async () => {
      const scalar = await app.call('POST', '/payments', 'just a string');
      assert.equal(scalar.status, 400);
      assert.equal(scalar.body.code, 'invalid_json');
      const big = await app.call('POST', '/payments', undefined, {
        raw: JSON.stringify({ pad: 'x'.repeat(64 * 1024) }),
      });
      assert.equal(big.status, 413);
      assert.equal(big.body.code, 'payload_too_large');
      const text = await app.call('POST', '/payments', undefined, {
        raw: 'card=1',
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(text.status, 415);
      assert.equal(text.body.code, 'unsupported_media_type');
    });

    it('JSON bodies: declared too large, wrong charset or compressed are refused before reading', async () => {
      const declared = await fetch(`${app.url}/payments`, {
        method: 'POST',
        headers: {
          origin: 'https://shop.test',
          'content-type': 'application/json',
          'content-length': String(64 * 1024),
        },
        body: JSON.stringify({ pad: 'x'.repeat(64 * 1024 - 10) }),
      });
      assert.equal(declared.status, 413);
      const latin = await app.call('POST', '/payments', card('4111111111111111'), {
        headers: { 'content-type': 'application/json; charset=iso-8859-1' },
      });
      assert.equal(latin.status, 415);
      assert.equal(latin.body.code, 'unsupported_media_type');
      const gzip = await app.call('POST', '/payments', undefined, {
        raw: '\x1f\x8b',
        headers: { 'content-encoding': 'gzip' },
      });
      assert.equal(gzip.status, 415);
      const utf8 = await app.call('POST', '/payments', card('4111111111111111'), {
        headers: { 'content-type': 'Application/JSON; charset="UTF-8"' },
      });
      assert.equal(utf8.status, 200, JSON.stringify(utf8.body));
      const empty = await app.call('POST', '/payments', undefined, { raw: '   ' });
      assert.equal(empty.status, 400);
      assert.equal(empty.body.code, 'invalid_request');
      assert.match(empty.body.message, /card/);
    });

    it('a smaller bodyLimit is honoured, and a body the merchant app already parsed is used', async () => {
      const small = await startApp({ bodyLimit: '200b' });
      try {
        const big = await small.call('POST', '/payments', {
          ...card('4111111111111111'),
          pad: 'x'.repeat(300),
        });
        assert.equal(big.status, 413);
        assert.equal(big.body.code, 'payload_too_large');
      } finally {
        await small.close();
      }
      const parsedFirst = await startApp({}, undefined, { parseJsonFirst: true });
      try {
        const paid = await parsedFirst.call('POST', '/payments', card('4111111111111111'));
        assert.equal(paid.status, 200, JSON.stringify(paid.body));
        assert.equal(paid.body.status, 'approved');
      } finally {
        await parsedFirst.close();
      }
    });

    it('a merchant hook that throws answers JSON without a stack', async () => {
      const broken = await startApp({
        resolveOrder: () => {
          throw new Error('db down at /srv/app.js:10');
        },
      });
      try {
        const { status, body } = await broken.call('POST', '/payments', card('4111111111111111'));
        assert.equal(status, 500);
        assert.equal(body.code, 'internal_error');
        assert.doesNotMatch(JSON.stringify(body), /srv|db down|at /);
      } finally {
        await broken.close();
      }
    });

    it('oversized webhook and 3-D Secure posts are refused with 413, not processed', async () => {
      const hook = await fetch(`${app.url}/webhooks/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pad: 'x'.repeat(300 * 1024) }),
      });
      assert.equal(hook.status, 413);
      const form = await fetch(`${app.url}/3ds/${'a'.repeat(32)}/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `cres=${'x'.repeat(100 * 1024)}`,
      });
      assert.equal(form.status, 413);
    });

    it('Step 2 and card removal from a foreign origin are refused', async () => {
      const created = await app.call('POST', '/payments', card('4000000000003063'));
      const foreign = await app.call(
        'POST',
        `/payments/${created.body.reference}/3dsv2/confirm`,
        {},
        { origin: 'https://evil.test' },
      );
      assert.equal(foreign.status, 403);
      assert.equal(app.gateway.calls.includes('confirmStep2'), false);
      const removal = await app.call('DELETE', '/cards/tok-1', undefined, {
        origin: 'https://evil.test',
      });
      assert.equal(removal.status, 403);
    });

    it('a merchant hook may refuse with its own CheckoutError status and message', async () => {
      const refusing = await startApp({
        resolveOrder: () => {
          throw new CheckoutError(409, 'cart_empty', 'Your cart is empty.');
        },
      });
      try {
        const { status, body } = await refusing.call('POST', '/payments', card('4111111111111111'));
        assert.equal(status, 409);
        assert.deepEqual(body, {
          success: false,
          message: 'Your cart is empty.',
          code: 'cart_empty',
        });
        assert.equal(refusing.gateway.calls.length, 0);
      } finally {
        await refusing.close();
      }
    });

    it('fuzz: no browser route answers 5xx to arbitrary input', async () => {
      const routes = [
        '/payments',
        '/payments/pg-x/3dsv2/confirm',
        '/hosted',
        '/redirect',
        '/eft',
        '/cards',
      ];
      const json = fc.oneof(
        fc.jsonValue().map((v) => JSON.stringify(v)),
        fc
          .record({
            card: fc.oneof(
              fc.record({
                number: fc.oneof(fc.string(), fc.stringMatching(/^\d{12,19}$/)),
                cardHolder: fc.string(),
                expiryMonth: fc.oneof(fc.integer(), fc.string()),
                expiryYear: fc.integer(),
                cvv: fc.oneof(fc.string(), fc.integer()),
                type: fc.constantFrom('visa', 'amex', 'x'),
              }),
              fc.record({ token: fc.string() }),
            ),
            screenWidth: fc.oneof(fc.integer(), fc.double(), fc.string()),
            screenHeight: fc.integer(),
            saveCard: fc.anything(),
            consumer: fc.anything(),
          })
          .map((v) => JSON.stringify(v)),
        fc.string(),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...routes),
          json,
          fc.constantFrom('POST', 'DELETE', 'GET'),
          async (route, raw, method) => {
            const answer = await app.call(
              method,
              route,
              undefined,
              method === 'GET' ? { origin: null } : { raw },
            );
            assert.ok(
              answer.status < 500 || answer.status === 502 || answer.status === 504,
              `${method} ${route} ${raw} -> ${answer.status}`,
            );
            assert.equal(typeof answer.body, 'object');
            assert.ok(
              answer.status < 500,
              `${method} ${route} -> ${answer.status} ${JSON.stringify(answer.body)}`,
            );
          },
        ),
        { numRuns: 150 },
      );
      const pageFuzz = fc.asyncProperty(
        fc.string(),
        fc.dictionary(fc.string(), fc.string()),
        async (session, form) => {
          const response = await fetch(`${app.url}/3ds/${encodeURIComponent(session)}/callback`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(form).toString(),
          });
          await response.arrayBuffer();
          assert.ok(response.status < 500);
        },
      );
      await fc.assert(pageFuzz, { numRuns: 60 });
    });
  });
});
