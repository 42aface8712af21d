/**
 * The card brands the gateway takes, declared once: their names in the gateway's own words and order
 * (its spec: `visa`, `mastercard`, `diners`, `amex`), the leading digits that tell them apart, and their
 * shapes. The gateway's schemas, the sandbox, the middleware and the drop-in read them from here; a new
 * brand is one row.
 */
export interface CardBrand {
  type: string;
  /** Leading-digit ranges, inclusive, both ends of one length: `['2221', '2720']`. */
  ranges: readonly (readonly [string, string])[];
  /** Where the number's groups break (after 4, 8, 12 digits: 4-4-4-4). */
  gaps: readonly number[];
  /** The number's possible lengths. */
  lengths: readonly number[];
  cvvLength: number;
}

export const CARD_BRANDS = [
  { type: 'visa', ranges: [['4', '4']], gaps: [4, 8, 12], lengths: [16, 18, 19], cvvLength: 3 },
  {
    type: 'mastercard',
    ranges: [
      ['51', '55'],
      ['2221', '2720'],
    ],
    gaps: [4, 8, 12],
    lengths: [16],
    cvvLength: 3,
  },
  {
    type: 'diners',
    ranges: [
      ['300', '305'],
      ['36', '36'],
      ['38', '39'],
    ],
    gaps: [4, 10],
    lengths: [14, 16, 19],
    cvvLength: 3,
  },
  {
    type: 'amex',
    ranges: [
      ['34', '34'],
      ['37', '37'],
    ],
    gaps: [4, 10],
    lengths: [15],
    cvvLength: 4,
  },
] as const satisfies readonly CardBrand[];

/** Card brands the gateway accepts, in its own words. */
export type CardType = (typeof CARD_BRANDS)[number]['type'];

/** The brands' names, in the gateway's order (pure: a bundle that takes only the table drops the list). */
export const CARD_TYPES = /* @__PURE__ */ CARD_BRANDS.map((brand) => brand.type) as [
  CardType,
  ...CardType[],
];

/** The brand whose range the number starts in; `undefined` for one the gateway does not take. */
export function cardBrandOf(digits: string): CardType | undefined {
  return CARD_BRANDS.find((brand) =>
    brand.ranges.some(([min, max]) => {
      const head = digits.slice(0, min.length);
      return head.length === min.length && head >= min && head <= max;
    }),
  )?.type;
}

/** The CVV's length for a brand: 4 digits for amex, 3 for the others. */
export function cvvLengthOf(type: CardType): number {
  return CARD_BRANDS.find((brand) => brand.type === type)!.cvvLength;
}
