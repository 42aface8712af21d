// The brands' ranges and shapes are the protocol's one table (CARD_BRANDS); what is the drop-in's own is
// matching a number still being typed ('partial': "22" may yet be a Mastercard).
import { CARD_BRANDS, type CardType } from '@pg-checkout/protocol/vocabulary';

export interface BrandRules {
  type: CardType;
  gaps: readonly number[];
  lengths: readonly number[];
  cvvLength: number;
}

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
function match(
  digits: string,
  [min, max]: readonly [string, string],
): 'full' | 'partial' | undefined {
  const head = digits.slice(0, min.length);
  const n = head.length;
  if (head < min.slice(0, n) || head > max.slice(0, n)) return undefined;
  return n === min.length ? 'full' : 'partial';
}

/** Detects one of the four brands the gateway takes from the leading digits. */
export function detectBrand(digits: string): BrandDetection {
  if (digits === '') return { kind: 'unknown' };
  let partial = false;
  for (const { ranges, ...rules } of CARD_BRANDS) {
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
