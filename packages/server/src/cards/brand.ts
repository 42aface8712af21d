import type { CardType } from '@pg-checkout/protocol/browser';

/**
 * The brand of a card number by its leading digits, for a card posted by a form with no script (the
 * drop-in sends the brand it detected; the same ranges as its `card/brands.ts`).
 */
const RANGES: ReadonlyArray<readonly [CardType, RegExp]> = [
  ['visa', /^4/],
  ['mastercard', /^(?:5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/],
  ['amex', /^3[47]/],
  ['diners', /^(?:30[0-5]|36|3[89])/],
];

export const brandOf = (digits: string): CardType | undefined =>
  RANGES.find(([, range]) => range.test(digits))?.[0];
