/**
 * The shipped locales, declared once: a new one is its messages file (`xx.ts`, a `Messages`) and its
 * entry here. The translator (localize.ts), the npm entry's exports, the script tag's global and its
 * files (scripts/build.mjs) read this table; amount.ts may add the locale's amounts written without Intl.
 *
 * The script tag carries English; every other locale's messages it loads from `pg-checkout.<code>.js`
 * beside itself when a page asks for the locale (scripts/build.mjs puts a loader in their place there).
 */
import { af } from './af.js';
import { en } from './en.js';
import type { Messages } from './messages.js';

// The npm entry re-exports this module's named exports: each locale's messages under its code.
export { af, en };

/** A table in a file of its own, fetched the first time it is asked for (the script tag's `af`). */
export type TableLoader = () => Promise<Messages>;

const LOCALES = { en, af };

/** A shipped locale's code: a `locale` attribute's, or a tag's first subtag (`af-ZA`). */
export type LocaleCode = keyof typeof LOCALES;
/** The locales the script tag loads from beside itself (all but English): `window.PgCheckout.af()`. */
export type BesideLocale = Exclude<LocaleCode, 'en'>;

/**
 * The table: each locale's messages by its code. This module's default, so the npm entry's `export *`
 * leaves it out; the translator keeps its tables in it (a loaded file's in place of its loader).
 */
export default LOCALES as Record<string, Messages | TableLoader>;
