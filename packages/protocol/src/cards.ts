import { z } from 'zod';
import { cvvLengthOf } from './vocabulary/cards.js';
import { CardType } from './constants.js';
import { cardType, integer, nonEmpty, obj, opt, text, type Mode } from './internal/fields.js';

/** The cvv the spec allows on subsequent recurring payments, for every card type. */
export const RECURRING_PLACEHOLDER_CVV = '000';

const cvvText = text('cvv').regex(/^\d{3,4}$/, 'cvv must be a string of 3 digits (4 for amex)');

function rawCard(mode: Mode) {
  return obj(mode, {
    number: text('number').regex(/^\d{12,19}$/, 'number must be 12 to 19 digits, no spaces'),
    cardHolder: nonEmpty('cardHolder'),
    expiryMonth: integer('expiryMonth')
      .min(1, 'expiryMonth must be 1-12')
      .max(12, 'expiryMonth must be 1-12'),
    expiryYear: integer('expiryYear')
      .min(1000, 'expiryYear must have four digits')
      .max(9999, 'expiryYear must have four digits'),
    // Optional only for subsequent recurring payments; Create payment checks when it is needed.
    cvv: opt(mode, cvvText),
    type: cardType(),
  }).superRefine((card, ctx) => {
    // '000' stands in for the cvv of subsequent recurring payments; operations decide where it is allowed.
    if (card.cvv === undefined || card.cvv === RECURRING_PLACEHOLDER_CVV) return;
    const want = cvvLengthOf(card.type);
    if (card.cvv.length !== want) {
      ctx.addIssue({
        code: 'custom',
        path: ['cvv'],
        message:
          want === 4
            ? 'cvv must be a string of 4 digits for amex'
            : `cvv must be a string of 3 digits for ${card.type}`,
      });
    }
  });
}

function tokenCard(mode: Mode) {
  return obj(mode, { token: nonEmpty('token'), cvv: opt(mode, cvvText) });
}

function transactionReferenceCard(mode: Mode) {
  return obj(mode, { transactionReference: nonEmpty('transactionReference') });
}

function paymentReferenceCard(mode: Mode) {
  return obj(mode, {
    paymentReference: nonEmpty('paymentReference'),
    initialTransactionReference: opt(mode, nonEmpty('initialTransactionReference')),
  });
}

/** The four ways to identify a card: raw data, vault token, earlier transaction, hosted-page payment. */
export function creditCard(mode: Mode) {
  return z.union([
    rawCard(mode),
    tokenCard(mode),
    transactionReferenceCard(mode),
    paymentReferenceCard(mode),
  ]);
}

export const RawCardSchema = rawCard('strict');
export const RawCardLenientSchema = rawCard('lenient');
export const TokenCardSchema = tokenCard('strict');
export const TransactionReferenceCardSchema = transactionReferenceCard('strict');
export const PaymentReferenceCardSchema = paymentReferenceCard('strict');
export const CreditCardSchema = creditCard('strict');
export const CreditCardLenientSchema = creditCard('lenient');

export type RawCard = z.infer<typeof RawCardSchema>;
export type TokenCard = z.infer<typeof TokenCardSchema>;
export type TransactionReferenceCard = z.infer<typeof TransactionReferenceCardSchema>;
export type PaymentReferenceCard = z.infer<typeof PaymentReferenceCardSchema>;
export type CreditCard = z.infer<typeof CreditCardSchema>;

/** An amex card whose cvv is the 3-digit recurring placeholder: valid only on subsequent recurring payments. */
export function hasAmexPlaceholderCvv(card: CreditCard): boolean {
  return 'number' in card && card.type === CardType.AMEX && card.cvv === RECURRING_PLACEHOLDER_CVV;
}

/** True when a card object carries raw card data (and so must never be logged). */
export function isRawCard(card: CreditCard): card is RawCard {
  return 'number' in card;
}

/** A card as card lookup returns it: number masked, first six and last four. */
export const MaskedCardSchema = z.looseObject({
  number: z.string().regex(/^\d{6}X+\d{4}$/, 'number must be masked (first six, X, last four)'),
  cardHolder: z.string(),
  expiryYear: z.number().int(),
  expiryMonth: z.number().int(),
  type: z.string(),
  token: z.string(),
});
export type MaskedCard = z.infer<typeof MaskedCardSchema>;
