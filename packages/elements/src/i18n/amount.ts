/**
 * An order's amount as Intl.NumberFormat's `currency` style writes it, without Intl, for the locale and
 * currency pairs a shop usually has. A page's first NumberFormat loads Intl's locale data (20 to 80 ms on
 * a busy machine, a long task before the first keystroke); these few are plain string work instead.
 * Each is checked character for character against the browser's own Intl (amount.test.ts).
 */

/** Symbol before the number, group separator, decimal separator; keyed by "locale|currency". */
const shapes: Record<string, readonly [string, string, string]> = {
  // "R 1 234,50": CLDR's South African formats put a no-break space after R and between groups.
  'en-ZA|ZAR': ['R\u00a0', '\u00a0', ','],
  'af-ZA|ZAR': ['R\u00a0', '\u00a0', ','],
  'en|USD': ['$', ',', '.'],
  'en|EUR': ['€', ',', '.'],
  'en|GBP': ['£', ',', '.'],
};

/**
 * `cents` (minor units of a two-decimal currency) written as `new Intl.NumberFormat(locale, { style:
 * 'currency', currency }).format(cents / 100)` would, or undefined for a pair (or amount) it does not know.
 */
export function quickAmount(locale: string, currency: string, cents: number): string | undefined {
  const shape = shapes[`${locale}|${currency}`];
  // Whole cents from 0 to 10^13: cents / 100 is then exact to the cent in Intl too.
  if (!shape || !Number.isInteger(cents) || cents < 0 || cents >= 1e13) return undefined;
  const whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+$)/g, shape[1]);
  return `${shape[0]}${whole}${shape[2]}${String(cents % 100).padStart(2, '0')}`;
}
