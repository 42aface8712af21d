import { rulesFor } from './brands.js';

export interface Formatted {
  /** What the input shows. */
  display: string;
  /** The digits behind it. */
  value: string;
  /** Where the caret goes in `display`. */
  caret: number;
}

export const digitsOnly = (text: string): string => text.replace(/\D+/g, '');

const digitsBefore = (text: string, position: number): number =>
  digitsOnly(text.slice(0, position)).length;

/** The caret position just after the `count`-th digit of `display` (before any separator that follows). */
function caretAfterDigits(display: string, count: number): number {
  if (count === 0) return 0;
  let seen = 0;
  for (let i = 0; i < display.length; i += 1) {
    if (/\d/.test(display.charAt(i))) {
      seen += 1;
      if (seen === count) return i + 1;
    }
  }
  return display.length;
}

/** Groups a card number by its brand (amex 4-6-5, most others 4-4-4-4), keeping the caret on its digit. */
export function formatCardNumber(raw: string, caret: number = raw.length): Formatted {
  const allDigits = digitsOnly(raw);
  const rules = rulesFor(allDigits);
  const max = Math.max(...rules.lengths);
  const value = allDigits.slice(0, max);
  let display = '';
  for (let i = 0; i < value.length; i += 1) {
    if (rules.gaps.includes(i)) display += ' ';
    display += value.charAt(i);
  }
  const count = Math.min(digitsBefore(raw, caret), value.length);
  return { display, value, caret: caretAfterDigits(display, count) };
}

/** Keeps the digits of a security code, at most `max`. */
export function formatCvv(raw: string, max: number): Formatted {
  const value = digitsOnly(raw).slice(0, max);
  return { display: value, value, caret: value.length };
}

/**
 * A delete that removed only a separator (the digits are the same as before) removes the digit beside it
 * instead, so Backspace and Delete step over the spaces and slashes the formatting put there.
 * Returns the raw text and caret to format.
 */
export function stepOverSeparator(
  raw: string,
  caret: number,
  previousDigits: string,
  inputType: string | undefined,
): { raw: string; caret: number } {
  if (digitsOnly(raw) !== previousDigits) return { raw, caret };
  const before = digitsOnly(raw.slice(0, caret));
  const after = digitsOnly(raw.slice(caret));
  if (inputType === 'deleteContentBackward' && before.length > 0)
    return { raw: before.slice(0, -1) + after, caret: before.length - 1 };
  if (inputType === 'deleteContentForward' && after.length > 0)
    return { raw: before + after.slice(1), caret: before.length };
  return { raw, caret };
}
