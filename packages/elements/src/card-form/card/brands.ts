import type { CardType } from '../../api/types.js';

export interface BrandRules {
  type: CardType;
  gaps: number[];
  lengths: number[];
  cvvLength: number;
}

/** Leading-digit ranges (inclusive, same length) of the four brands the gateway takes, and their shapes. */
const brands: Array<BrandRules & { ranges: Array<[string, string]> }> = [
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
    type: 'amex',
    ranges: [
      ['34', '34'],
      ['37', '37'],
    ],
    gaps: [4, 10],
    lengths: [15],
    cvvLength: 4,
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
];

/** Grouping used while no brand is known: 4-4-4-4 up to 19 digits. */
export const defaultRules: Omit<BrandRules, 'type'> = {
  gaps: [4, 8, 12],
  lengths: [16, 19],
  cvvLength: 3,
};

export type BrandDetection =
  | { kind: 'brand'; rules: BrandRules }
  | { kind: 'unknown' } /* too few digits to tell */
  | { kind: 'unsupported' };

/** Whether `digits` starts inside [min, max], or could once more digits come ('partial'). */
function match(digits: string, [min, max]: [string, string]): 'full' | 'partial' | undefined {
  const head = digits.slice(0, min.length);
  const n = head.length;
  if (head < min.slice(0, n) || head > max.slice(0, n)) return undefined;
  return n === min.length ? 'full' : 'partial';
}

/** Detects one of the four brands the gateway takes from the leading digits. */
export function detectBrand(digits: string): BrandDetection {
  if (digits === '') return { kind: 'unknown' };
  let partial = false;
  for (const { ranges, ...rules } of brands) {
    for (const range of ranges) {
      const m = match(digits, range);
      if (m === 'full') return { kind: 'brand', rules };
      if (m) partial = true;
    }
  }
  return partial ? { kind: 'unknown' } : { kind: 'unsupported' };
}

export function brandOf(digits: string): CardType | undefined {
  const detection = detectBrand(digits);
  return detection.kind === 'brand' ? detection.rules.type : undefined;
}

export function rulesFor(digits: string): Omit<BrandRules, 'type'> & { type?: CardType } {
  const detection = detectBrand(digits);
  return detection.kind === 'brand' ? detection.rules : defaultRules;
}
