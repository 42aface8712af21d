import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CARD_TYPES, CardType, RawCardSchema } from '../src/index.js';
import {
  CARD_BRANDS,
  PAYMENT_METHODS,
  REDIRECT_METHODS,
  cardBrandOf,
  cvvLengthOf,
} from '../src/vocabulary/index.js';

// The three detections the table replaces, as they were written (the middleware's form route, the
// sandbox, the drop-in): the table must tell every prefix apart as each of them did.
const asTheServerDid = (digits: string) =>
  (
    [
      ['visa', /^4/],
      ['mastercard', /^(?:5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/],
      ['amex', /^3[47]/],
      ['diners', /^(?:30[0-5]|36|3[89])/],
    ] as const
  ).find(([, range]) => range.test(digits))?.[0];
const asTheSandboxDid = (pan: string) => {
  if (pan.startsWith('4')) return 'visa';
  const two = Number(pan.slice(0, 2));
  const three = Number(pan.slice(0, 3));
  const four = Number(pan.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'mastercard';
  if (two === 34 || two === 37) return 'amex';
  if (two === 36 || two === 38 || two === 39 || (three >= 300 && three <= 305)) return 'diners';
  return undefined;
};

test('one brand table: every four-digit prefix gets the brand the server and the sandbox gave it', () => {
  for (let prefix = 0; prefix < 10_000; prefix += 1) {
    const pan = `${String(prefix).padStart(4, '0')}000000000000`;
    const brand = cardBrandOf(pan);
    assert.equal(brand, asTheServerDid(pan), pan);
    assert.equal(brand, asTheSandboxDid(pan), pan);
  }
  // Boundaries, spelled out.
  assert.equal(cardBrandOf('2220999999999999'), undefined);
  assert.equal(cardBrandOf('2221000000000009'), 'mastercard');
  assert.equal(cardBrandOf('2720999999999999'), 'mastercard');
  assert.equal(cardBrandOf('2721000000000000'), undefined);
  assert.equal(cardBrandOf('30599999999999'), 'diners');
  assert.equal(cardBrandOf('30600000000000'), undefined);
  assert.equal(cardBrandOf('6011111111111117'), undefined);
  // Too few digits to reach a range's length: no brand (as the regular expressions said).
  assert.equal(cardBrandOf('222'), undefined);
  assert.equal(cardBrandOf(''), undefined);
});

test('the names, their constants and the CVV lengths come from the table, as they were', () => {
  assert.deepEqual(CARD_TYPES, ['visa', 'mastercard', 'diners', 'amex']);
  assert.deepEqual(
    CARD_BRANDS.map((b) => b.type),
    CARD_TYPES,
  );
  // Same keys, same values, same order as the object literal it replaces.
  assert.deepEqual(Object.entries(CardType), [
    ['VISA', 'visa'],
    ['MASTERCARD', 'mastercard'],
    ['DINERS', 'diners'],
    ['AMEX', 'amex'],
  ]);
  assert.deepEqual(
    CARD_TYPES.map((t) => cvvLengthOf(t)),
    [3, 3, 3, 4],
  );
  // The gateway's schema still names the brands in its own order, and checks the CVV by the table.
  const card = {
    number: '378282246310005',
    cardHolder: 'A',
    expiryMonth: 1,
    expiryYear: 2030,
    type: 'amex',
  };
  assert.ok(RawCardSchema.safeParse({ ...card, cvv: '1234' }).success);
  const short = RawCardSchema.safeParse({ ...card, cvv: '123' });
  assert.equal(short.error?.issues[0]?.message, 'cvv must be a string of 4 digits for amex');
  const brand = RawCardSchema.safeParse({ ...card, cvv: '1234', type: 'discover' });
  assert.match(String(brand.error?.issues[0]?.message), /visa, mastercard, diners, amex/);
});

test('one list of payment methods: the card, then the redirect methods', () => {
  assert.deepEqual(REDIRECT_METHODS, ['hosted', 'eft', 'redirect']);
  assert.deepEqual(PAYMENT_METHODS, ['card', 'hosted', 'eft', 'redirect']);
});
