import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CreditCardLenientSchema,
  CreditCardSchema,
  MaskedCardSchema,
  PaymentReferenceCardSchema,
  RawCardSchema,
  TokenCardSchema,
  TransactionReferenceCardSchema,
  isRawCard,
} from '../src/index.js';
import { failsAt, passes, visaCard, withChange } from './support.js';

describe('credit card shapes', () => {
  it('accepts each of the four identification shapes', () => {
    passes(RawCardSchema, visaCard);
    passes(TokenCardSchema, { token: 'tok_123' });
    passes(TransactionReferenceCardSchema, { transactionReference: 'PG-1' });
    passes(PaymentReferenceCardSchema, {
      paymentReference: 'PG-2',
      initialTransactionReference: 'PG-1',
    });
    for (const card of [
      visaCard,
      { token: 't' },
      { transactionReference: 'r' },
      { paymentReference: 'p' },
    ]) {
      passes(CreditCardSchema, card);
    }
  });

  it('accepts amex with a 4-digit cvv and refuses 3 digits', () => {
    const amex = { ...visaCard, number: '378282246310005', type: 'amex', cvv: '1234' };
    passes(RawCardSchema, amex);
    failsAt(RawCardSchema, { ...amex, cvv: '123' }, 'cvv', /4 digits for amex/);
  });

  it('refuses a 4-digit cvv on visa and a numeric cvv', () => {
    failsAt(RawCardSchema, { ...visaCard, cvv: '1234' }, 'cvv', /3 digits for visa/);
    failsAt(RawCardSchema, { ...visaCard, cvv: 123 }, 'cvv', /must be a string, received number/);
    failsAt(RawCardSchema, { ...visaCard, cvv: '12a' }, 'cvv', /3 digits/);
  });

  it('requires expiryMonth 1-12 as a number and a four-digit expiryYear number', () => {
    failsAt(RawCardSchema, { ...visaCard, expiryMonth: 0 }, 'expiryMonth', /1-12/);
    failsAt(RawCardSchema, { ...visaCard, expiryMonth: 13 }, 'expiryMonth', /1-12/);
    failsAt(
      RawCardSchema,
      { ...visaCard, expiryMonth: '07' },
      'expiryMonth',
      /JSON number, received string/,
    );
    failsAt(RawCardSchema, { ...visaCard, expiryMonth: 7.5 }, 'expiryMonth', /integer/);
    failsAt(RawCardSchema, { ...visaCard, expiryYear: 30 }, 'expiryYear', /four digits/);
    failsAt(RawCardSchema, { ...visaCard, expiryYear: '2030' }, 'expiryYear', /JSON number/);
  });

  it('requires a known card type and a digits-only number', () => {
    failsAt(
      RawCardSchema,
      { ...visaCard, type: 'discover' },
      'type',
      /visa, mastercard, diners, amex/,
    );
    failsAt(RawCardSchema, { ...visaCard, number: '4111 1111 1111 1111' }, 'number', /digits/);
    failsAt(
      RawCardSchema,
      withChange(visaCard, (c) => delete c.cardHolder),
      'cardHolder',
      /required/,
    );
  });

  it('strict refuses unknown keys, lenient drops them and treats null as absent', () => {
    failsAt(CreditCardSchema, { token: 't', color: 'red' }, '', /unknown field `color`/);
    const parsed = passes(CreditCardLenientSchema, { token: 't', color: 'red', cvv: null });
    assert.deepEqual({ ...parsed }, { token: 't', cvv: undefined });
    failsAt(CreditCardLenientSchema, { ...visaCard, cvv: 123 }, 'cvv', /string/);
  });

  it('reports on the closest shape of the union', () => {
    failsAt(CreditCardSchema, { ...visaCard, expiryMonth: 14 }, 'expiryMonth', /1-12/);
    failsAt(CreditCardSchema, { token: 42 }, 'token', /string/);
  });

  it('isRawCard tells raw card data from references', () => {
    assert.equal(isRawCard(passes(CreditCardSchema, visaCard)), true);
    assert.equal(isRawCard({ token: 't' }), false);
  });

  it('accepts a masked card as lookup returns it and refuses an unmasked number', () => {
    const masked = {
      number: '411111XXXXXX1111',
      cardHolder: 'J',
      expiryYear: 2030,
      expiryMonth: 7,
      type: 'visa',
      token: 't',
    };
    passes(MaskedCardSchema, { ...masked, extra: true });
    failsAt(MaskedCardSchema, { ...masked, number: '4111111111111111' }, 'number', /masked/);
  });
});
