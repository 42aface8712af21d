import type { Messages } from './messages.js';

// The script tag's own URL, known only while it runs.
const script = (document.currentScript as HTMLScriptElement | null)?.src;

/**
 * The script-tag file's Afrikaans: `pg-checkout.af.js` beside it, imported the first time `af` is asked
 * for (build.mjs puts this module in place of `af.ts` there); English until it arrives, or if it cannot.
 */
export const af = (): Promise<Messages> =>
  script
    ? import(new URL('pg-checkout.af.js', script).href).then((m: { af: Messages }) => m.af)
    : Promise.reject(new Error('no script URL'));
