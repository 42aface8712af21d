/**
 * The server's words come from the protocol's one vocabulary: the methods it accepts, routes, counts
 * and the card brands it reads follow the tables, so a row added there is a row taken here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CardDetails } from '@pg-checkout/protocol/browser';
import {
  CARD_TYPES,
  PAYMENT_METHODS,
  REDIRECT_METHODS,
  type PaymentMethod,
  type RedirectMethod,
} from '@pg-checkout/protocol/vocabulary';
import type { z } from 'zod';
import type { CardInput } from '../src/gateway/port.js';
import type { PaymentMethodName } from '../src/options.js';
import { ROUTES } from '../src/http/routes.js';
import type { HttpExchange } from '../src/http/exchange.js';
import { useCaseOf } from '../src/http/use-case-of.js';
import { validateOptions } from '../src/setup/validate-options.js';
import { allowed, ATTR } from '../src/telemetry/names.js';
import type { RedirectMethod as StartedRedirect } from '../src/use-cases/redirects.js';
import { CardDetailsBody, CreatePaymentBody, parseBody } from '../src/use-cases/schemas.js';

// Compile time: each of these is `true` only while the two types are the same.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTypes: [
  Same<PaymentMethodName, PaymentMethod>,
  Same<StartedRedirect, RedirectMethod>,
  Same<CardInput, CardDetails>,
  Same<z.output<typeof CardDetailsBody>, CardDetails>,
] = [true, true, true, true];

const options = (methods: unknown) => ({
  gateway: { baseUrl: 'https://gateway.test', token: 't', secret: 's' },
  sessionSecret: 's'.repeat(32),
  publicUrl: 'https://shop.test/checkout',
  resolveOrder: () => ({ amount: 100, currency: 'ZAR', reference: 'o1' }),
  methods,
  redirectUrls: {
    success: 'https://shop.test/ok',
    cancel: 'https://shop.test/cancel',
    error: 'https://shop.test/error',
  },
});

test('the methods a merchant may turn on are PAYMENT_METHODS, no more', () => {
  assert.deepEqual(sameTypes, [true, true, true, true]);
  for (const method of PAYMENT_METHODS)
    assert.deepEqual(validateOptions(options([method])).methods, [method]);
  assert.deepEqual(validateOptions(options([...PAYMENT_METHODS])).methods, PAYMENT_METHODS);
  assert.throws(() => validateOptions(options(['bitcoin'])), /`methods\.0`/);
});

test('each redirect method has its route, its span and its metric value', () => {
  const served = ROUTES.filter((route) => route.method === 'POST').map((route) => route.path);
  for (const method of REDIRECT_METHODS) {
    assert.ok(served.includes(`/${method}`), method);
    const route = ROUTES.find((r) => r.method === 'POST' && r.path === `/${method}`)!;
    assert.deepEqual(useCaseOf(route, { body: {} } as HttpExchange), [
      'redirect_start',
      { [ATTR.method]: method },
    ]);
  }
  for (const method of [...PAYMENT_METHODS, 'saved_card'])
    assert.equal(allowed('method', method), method);
  assert.equal(allowed('method', 'bitcoin'), 'other');
});

test("the browser's card body takes the brands of CARD_TYPES, no more", () => {
  const card = {
    number: '4111 1111 1111 1111',
    cardHolder: 'A',
    expiryMonth: 1,
    expiryYear: 2030,
    cvv: '123',
  };
  for (const type of CARD_TYPES)
    assert.equal(parseBody(CardDetailsBody, { ...card, type }).type, type);
  assert.throws(() => parseBody(CardDetailsBody, { ...card, type: 'discover' }), /Invalid type/);
  // The payment's body reads its card details with the same schema.
  const body = { card: { ...card, type: 'amex' }, screenWidth: 1, screenHeight: 1 };
  assert.deepEqual(parseBody(CreatePaymentBody, body).card, {
    ...card,
    number: '4111111111111111',
    type: 'amex',
  });
});
