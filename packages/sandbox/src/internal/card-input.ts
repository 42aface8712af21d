import { CARD_TYPES, cvvLengthOf } from '@pg-checkout/protocol/vocabulary';
import type { Ctx } from './context.js';
import { badRequest, notFound } from './errors.js';
import { behaviourOf, brandOf, luhnValid, type CardType } from './test-cards.js';
import type { CardRecord } from './types.js';
import type { BodyReader } from './validate.js';

export interface Decline {
  originalErrorCode: string;
  message: string;
}

/** A request's Credit Card object, whichever of its four shapes, read to the stored card it names. */
export interface ParsedCard {
  card: CardRecord;
  via: 'raw' | 'token' | 'transactionReference' | 'paymentReference';
  cvv?: string | undefined;
  /** Set when the card data itself is declined (bad Luhn, expired, unsupported brand). */
  decline?: Decline | undefined;
}

export const DECLINES = {
  invalidNumber: { originalErrorCode: 'fin014', message: 'Invalid card number' },
  expired: { originalErrorCode: 'fin054', message: 'The card has expired' },
  brand: { originalErrorCode: 'fin057', message: 'This card brand is not accepted' },
  doNotHonour: { originalErrorCode: 'fin005', message: 'Declined by the card issuer' },
  insufficientFunds: { originalErrorCode: 'fin051', message: 'Insufficient funds' },
  authFailed: { originalErrorCode: 'fin006', message: '3-D Secure authentication failed' },
} satisfies Record<string, Decline>;

function isExpired(month: number, year: number, now: number): boolean {
  const d = new Date(now);
  const y = d.getUTCFullYear();
  return year < y || (year === y && month < d.getUTCMonth() + 1);
}

/** Raw card data (shape a); validates types and formats, then classifies declines without throwing. */
export function readRawCard(
  ctx: Ctx,
  r: BodyReader,
  opts: { cvvOptional?: boolean } = {},
): { pan: string; card: CardRecord; cvv?: string | undefined; decline?: Decline | undefined } {
  const pan = r.reqStr('number', {
    pattern: /^\d{12,19}$/,
    hint: 'a card number is 12 to 19 digits',
  });
  const cardHolder = r.reqStr('cardHolder', { max: 100 });
  const expiryMonth = r.reqInt('expiryMonth', { min: 1, max: 12 });
  const expiryYear = r.reqInt('expiryYear', { min: 1000, max: 9999 });
  const declared = r.str('type');
  if (declared !== undefined && !CARD_TYPES.includes(declared as CardType)) {
    throw badRequest(`${r.name('type')} must be one of ${CARD_TYPES.join(', ')}`);
  }
  const cvv = r.str('cvv', {
    required: !opts.cvvOptional,
    pattern: /^\d{3,4}$/,
    hint: '3 or 4 digits',
  });
  const brand = brandOf(pan);
  let decline: Decline | undefined;
  if (!luhnValid(pan)) decline = DECLINES.invalidNumber;
  else if (!brand) decline = DECLINES.brand;
  else if (isExpired(expiryMonth, expiryYear, ctx.clock.now())) decline = DECLINES.expired;
  const type = brand ?? (declared as CardType | undefined) ?? 'visa';
  if (!decline && declared !== undefined && declared !== type) {
    throw badRequest(`${r.name('type')} is ${declared} but the card number is a ${type} card`);
  }
  if (
    !decline &&
    cvv !== undefined &&
    cvv.length !== cvvLengthOf(type) &&
    !(opts.cvvOptional && cvv === '000')
  ) {
    throw badRequest(`${r.name('cvv')} must be ${cvvLengthOf(type)} digits for a ${type} card`);
  }
  const card = ctx.store.internCard(
    pan,
    type,
    behaviourOf(pan),
    cardHolder,
    expiryMonth,
    expiryYear,
  );
  return { pan, card, cvv, decline };
}

/** Any of the four identification shapes of a Credit Card object. */
export function readCardInput(
  ctx: Ctx,
  r: BodyReader,
  opts: { cvvOptional?: boolean } = {},
): ParsedCard {
  if (r.has('number')) {
    const { card, cvv, decline } = readRawCard(ctx, r, opts);
    return { card, via: 'raw', cvv, decline };
  }
  const cvv = r.str('cvv', { pattern: /^\d{3,4}$/, hint: '3 or 4 digits' });
  const token = r.str('token', { max: 100 });
  if (token !== undefined) {
    const card = ctx.store.tokens.get(token);
    if (!card) throw notFound(`No stored card with token ${token}`);
    return withExpiry(ctx, { card, via: 'token', cvv });
  }
  const txRef = r.str('transactionReference', { max: 100 });
  if (txRef !== undefined) {
    const txn = ctx.store.require(txRef);
    if (!txn.card) throw badRequest(`Transaction ${txRef} was not paid with a card`);
    return withExpiry(ctx, { card: txn.card, via: 'transactionReference', cvv });
  }
  const payRef = r.str('paymentReference', { max: 100 });
  if (payRef !== undefined) {
    const txn = ctx.store.require(payRef, 'payment');
    if (!txn.hosted?.recurring)
      throw badRequest(`Payment ${payRef} was not created with recurring true`);
    if (
      !txn.card ||
      (txn.status !== 'SETTLED' && txn.status !== 'AUTHORIZED' && txn.status !== 'REFUNDED')
    ) {
      throw badRequest(`Payment ${payRef} has no successful card payment to transact against`);
    }
    const initial = r.str('initialTransactionReference', { max: 100 });
    if (initial !== undefined) ctx.store.require(initial, 'initial transaction');
    return withExpiry(ctx, { card: txn.card, via: 'paymentReference', cvv });
  }
  throw badRequest(
    `${r.name('number')}, ${r.name('token')}, ${r.name('transactionReference')} or ${r.name('paymentReference')} is required`,
  );
}

function withExpiry(ctx: Ctx, input: ParsedCard): ParsedCard {
  if (isExpired(input.card.expiryMonth, input.card.expiryYear, ctx.clock.now()))
    input.decline = DECLINES.expired;
  return input;
}
