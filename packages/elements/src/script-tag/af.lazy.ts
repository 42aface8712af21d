import { importBesideScript } from './beside-script.lazy.js';
import type { Messages } from '../i18n/messages.js';

/**
 * The script-tag file's Afrikaans: `pg-checkout.af.js` beside it, imported the first time `af` is asked
 * for (build.mjs puts this module in place of `af.ts` there); English until it arrives, or if it cannot.
 */
export const af = (): Promise<Messages> =>
  importBesideScript<{ af: Messages }>('pg-checkout.af.js').then((m) => m.af);
