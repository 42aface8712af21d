import creditCardType from 'credit-card-type';
import type { CardType } from '../api/types.js';

export interface BrandRules {
  type: CardType;
  gaps: number[];
  lengths: number[];
  cvvLength: number;
}

const fromLibrary: Record<string, CardType> = {
  visa: 'visa',
  mastercard: 'mastercard',
  'american-express': 'amex',
  'diners-club': 'diners',
};

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

/** Detects one of the four brands the gateway takes from the leading digits. */
export function detectBrand(digits: string): BrandDetection {
  if (digits === '') return { kind: 'unknown' };
  const candidates = creditCardType(digits);
  const ours = candidates.filter((c) => c.type in fromLibrary);
  if (ours.length === 1 && ours[0]) {
    const match = ours[0];
    return {
      kind: 'brand',
      rules: {
        type: fromLibrary[match.type] as CardType,
        gaps: match.gaps,
        lengths: match.lengths,
        cvvLength: match.code.size,
      },
    };
  }
  if (ours.length > 1) return { kind: 'unknown' };
  return { kind: 'unsupported' };
}

export function brandOf(digits: string): CardType | undefined {
  const detection = detectBrand(digits);
  return detection.kind === 'brand' ? detection.rules.type : undefined;
}

export function rulesFor(digits: string): Omit<BrandRules, 'type'> & { type?: CardType } {
  const detection = detectBrand(digits);
  return detection.kind === 'brand' ? detection.rules : defaultRules;
}
