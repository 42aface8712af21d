/** The route table serves the Browser API's route map (`@pg-checkout/protocol/browser`), all of it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserRoute } from '@pg-checkout/protocol/browser';
import { ROUTES } from '../src/http/routes.js';
import { routeUrl } from '../src/order/route-url.js';

// Typed over the map: a route added to it fails to compile here until it is listed.
const MAP: Record<BrowserRoute, true> = {
  'GET /config': true,
  'POST /payments': true,
  'POST /payments/:reference/3dsv2/confirm': true,
  'POST /payments/:reference/cancel': true,
  'GET /payments/:reference': true,
  'GET /order': true,
  'GET /3ds/:session/method': true,
  'POST /3ds/:session/callback': true,
  'POST /3ds/:session/term': true,
  'POST /form/pay': true,
  'GET /form/:session/continue': true,
  'POST /hosted': true,
  'POST /redirect': true,
  'POST /eft': true,
  'GET /cards': true,
  'POST /cards': true,
  'DELETE /cards/:token': true,
  'POST /webhooks/notify': true,
  'POST /webhooks/payout': true,
  'POST /reports': true,
};

test('every route of the map is served, once', () => {
  const served = ROUTES.map((route) => `${route.method} ${route.path}`);
  assert.deepEqual([...served].sort(), Object.keys(MAP).sort());
});

test('routeUrl fills and encodes each parameter under the public URL', () => {
  const base = 'https://shop.test/checkout';
  assert.equal(
    routeUrl(base, 'POST /payments/:reference/3dsv2/confirm', { reference: 'a/b c' }),
    'https://shop.test/checkout/payments/a%2Fb%20c/3dsv2/confirm',
  );
  assert.equal(
    routeUrl(base, 'POST /3ds/:session/term', { session: 'b64.x_y-z.sig' }),
    'https://shop.test/checkout/3ds/b64.x_y-z.sig/term',
  );
  assert.equal(routeUrl(base, 'POST /webhooks/notify', {}), `${base}/webhooks/notify`);
});
