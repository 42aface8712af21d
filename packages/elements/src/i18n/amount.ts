/**
 * An order's amount as Intl.NumberFormat's `currency` style writes it, without Intl, for the locale and
 * currency pairs a shop usually has. A page's first NumberFormat loads Intl's locale data (20 to 80 ms on
 * a busy machine, a long task before the first keystroke); these few are plain string work instead.
 * Each is checked character for character against the browser's own Intl (amount.test.ts).
 */

/**
 * Symbol before the number, group separator, decimal separator; keyed by "locale|currency", the locale
 * as `amountLocale` tags it. A locale of the table (locales.ts) with no entry here is written by Intl.
 */
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

/** A region for the amount when the locale names none: the shop's currency says where it is. */
const currencyRegion: Record<string, string> = { ZAR: 'ZA' };

/** The locale to format an amount in: `en` with rands is `en-ZA` ("R 149,00"), not "ZAR 149.00". */
export function amountLocale(locale: string, currency: string): string {
  if (/[-_]/.test(locale)) return locale.replace('_', '-');
  const region = currencyRegion[currency];
  return region ? `${locale}-${region}` : locale;
}

/** Number formats by "locale|currency" (null: Intl refused them). */
const formats = new Map<string, Intl.NumberFormat | null>();

/**
 * `cents` of `currency` written for `locale`: at once for the usual pairs (`quickAmount`), else through
 * Intl. A page's first NumberFormat loads Intl's locale data (20-60 ms), so it is made when the browser
 * is idle: undefined until then, and `ready` runs once it exists.
 */
export function formatAmount(
  locale: string,
  currency: string,
  cents: number,
  ready: () => void,
): string | undefined {
  const tag = amountLocale(locale, currency);
  const quick = quickAmount(tag, currency, cents);
  if (quick !== undefined) return quick;
  const key = `${tag}|${currency}`;
  const format = formats.get(key);
  if (format === undefined) {
    whenIdle(() => {
      if (!formats.has(key)) formats.set(key, numberFormat(tag, currency));
      ready();
    });
    return undefined;
  }
  return format?.format(cents / 100);
}

function numberFormat(locale: string, currency: string): Intl.NumberFormat | null {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency });
  } catch {
    return null;
  }
}

/** Runs `work` when the browser is idle after painting, and within 200 ms. */
function whenIdle(work: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: 200 });
  else setTimeout(work, 16);
}
