import { digitsOnly, type Formatted } from './format.js';

export interface Expiry {
  month: number;
  year: number;
}

/**
 * Reads what people and autofill type: `MM/YY`, `MM / YYYY`, `M/YY`, `MMYY`, `MMYYYY`, `YYYY-MM`.
 * Returns undefined when it is not (yet) a date; that is a state, not an error.
 */
export function parseExpiry(text: string): Expiry | undefined {
  const trimmed = text.trim();
  const iso = /^(\d{4})\s*-\s*(\d{1,2})$/.exec(trimmed);
  if (iso) return check(Number(iso[2]), Number(iso[1]));
  const separated = /^(\d{1,2})\s*[/\-. ]\s*(\d{2}|\d{4})$/.exec(trimmed);
  if (separated) return check(Number(separated[1]), toFullYear(separated[2] as string));
  const digits = /^\d{4}$|^\d{6}$/.test(trimmed) ? trimmed : undefined;
  if (digits) return check(Number(digits.slice(0, 2)), toFullYear(digits.slice(2)));
  return undefined;
}

const toFullYear = (year: string): number =>
  year.length === 2 ? 2000 + Number(year) : Number(year);

function check(month: number, year: number): Expiry | undefined {
  return month >= 1 && month <= 12 ? { month, year } : undefined;
}

/** True once the card's expiry month is over. */
export function isExpired(expiry: Expiry, now: Date = new Date()): boolean {
  const year = now.getFullYear();
  return expiry.year < year || (expiry.year === year && expiry.month < now.getMonth() + 1);
}

/**
 * Formats typing into `MM / YY` (or `MM / YYYY`), turning autofill's `YYYY-MM` into the same shape and
 * a leading 2-9 into `0N`, while the caret stays on the digit it was after.
 */
export function formatExpiry(raw: string, caret: number = raw.length): Formatted {
  const iso = /^\s*(\d{4})-(\d{2})\s*$/.exec(raw);
  if (iso) {
    const display = `${iso[2]} / ${(iso[1] as string).slice(2)}`;
    return { display, value: digitsOnly(display), caret: display.length };
  }
  let digits = digitsOnly(raw);
  let count = digitsOnly(raw.slice(0, caret)).length;
  // "4" can only mean April; "1/" means January when the shopper typed the separator.
  if (/^[2-9]$/.test(digits.charAt(0)) || /^\d\s*[/\-.]/.test(raw.trim())) {
    digits = `0${digits}`;
    count += 1;
  }
  digits = digits.slice(0, 6);
  const display = digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
  count = Math.min(count, digits.length);
  let position = count <= 2 ? count : count + 3;
  if (count === 2 && digits.length > 2) position = 2;
  return { display, value: digits, caret: Math.min(position, display.length) };
}

/** Regroups the digits left after a delete as `MM / YY…`, without the typing rules (no leading zero added). */
export function regroupExpiry(raw: string, caret: number): Formatted {
  const digits = digitsOnly(raw).slice(0, 6);
  const display = digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
  const count = Math.min(digitsOnly(raw.slice(0, caret)).length, digits.length);
  const position = count <= 2 ? count : count + 3;
  return { display, value: digits, caret: Math.min(position, display.length) };
}
