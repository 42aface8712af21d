/**
 * The script tag's global: `pg-checkout.js` sets `window.PgCheckout`. For pages that use the script tag
 * and type-check their own scripts, add `"types": ["@pg-checkout/elements/global"]` to tsconfig.json
 * (or `/// <reference types="@pg-checkout/elements/global" />`): the global, the tags and the events are
 * typed then, with nothing imported.
 */
import type * as entry from './index.js';
import type { BesideLocale } from './i18n/locales.js';
import type { Messages } from './i18n/messages.js';

/** `window.PgCheckout`: what the npm root entry exports, as the script-tag file has it. */
export type PgCheckoutGlobal = Omit<typeof entry, BesideLocale | 'Pg3dsV2' | 'Pg3dsV1'> & {
  /** Each locale loaded from beside the script (`af`: `pg-checkout.af.js`): resolves with its table. */
  [Code in BesideLocale]: () => Promise<Messages>;
} & {
  /** Undefined until `pg-checkout.3ds.js` (beside the script) has loaded. */
  Pg3dsV2: typeof entry.Pg3dsV2 | undefined;
  /** Undefined until `pg-checkout.3ds.js` (beside the script) has loaded. */
  Pg3dsV1: typeof entry.Pg3dsV1 | undefined;
};

declare global {
  interface Window {
    PgCheckout: PgCheckoutGlobal;
  }
  // A global the script sets: only `var` declares one.
  var PgCheckout: PgCheckoutGlobal;
}
