import { ContextConsumer } from '@lit/context';
import { css, html, LitElement, nothing } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { CheckoutApi } from '../api/client.js';
import type { Pg3dsV1 as V1 } from '../three-ds/3ds-v1.component.js';
import type { Pg3dsV2 as V2 } from '../three-ds/3ds-v2.component.js';
import type * as Flow from '../checkout/payment-flow.steps.js';
import type { shopperMessage as Sentence } from '../shared/failure-message.js';
import { checkoutContext } from '../shared/context.js';
import { LocalizeController } from '../shared/localize-controller.js';
import { themeStyles } from '../shared/theme.js';
import { importBesideScript } from './beside-script.lazy.js';
import { ConnectionController } from '../shared/connection.js';
import { lookControllers } from '../shared/look.js';

/** The 3-D Secure classes, once `pg-checkout.3ds.js` ran (`PgCheckout.Pg3dsV2` in the script tag). */
export let Pg3dsV1: typeof V1 | undefined;
export let Pg3dsV2: typeof V2 | undefined;
let flow: typeof Flow | undefined;

const FILE = 'pg-checkout.3ds.js';

/**
 * What pg-checkout.3ds.js takes from this file rather than a second copy, one object of exports (build.mjs,
 * SHARED, lists the same names by module): one lit, one context key, one API client and table of messages. Made when it is
 * needed: this module and shared/localize-controller.ts import each other, so either may run first.
 */
const shared = () => ({
  css,
  html,
  LitElement,
  nothing,
  keyed,
  ContextConsumer,
  CheckoutApi,
  checkoutContext,
  LocalizeController,
  ConnectionController,
  lookControllers,
  themeStyles,
});

let loading: Promise<boolean> | undefined;

/**
 * The script-tag file's 3-D Secure: `pg-checkout.3ds.js` beside it (build.mjs puts this module in place
 * of the 3-D Secure entries, flow-ready.ts and failure-message.ts there). Fetched on the shopper's first touch of
 * the page or 2 s after load, at once when a `<pg-3ds-*>` is in the page or a payment starts. False, with the file
 * named in the console, when it cannot load; the next payment tries again.
 */
export const threeDSReady = (): Promise<boolean> =>
  // After a microtask: called while this file runs (a `<pg-3ds-*>` already in the page), `shared()` would
  // otherwise read LocalizeController before its module ran and hand the chunk `undefined`.
  (loading ??= Promise.resolve()
    .then(load)
    .then(
      (m) => {
        Pg3dsV1 = m.Pg3dsV1;
        Pg3dsV2 = m.Pg3dsV2;
        flow = m.checkoutFlow;
        return true;
      },
      (error: unknown) => {
        console.error(
          `pg-checkout: ${FILE} (3-D Secure) could not be loaded beside the script`,
          error,
        );
        loading = undefined;
        return false;
      },
    ));

/** The drop-in's steps from Pay to the outcome, which `pg-checkout.3ds.js` carries too (controllers/flow-ready.ts). */
export const flowReady = (): Promise<typeof Flow | undefined> => threeDSReady().then(() => flow);

/**
 * The outcome sentence (`LocalizeController.outcome`) in the script tag: build.mjs puts this module in
 * place of failure-message.ts there, since the code table it reads ships in pg-checkout.3ds.js, which has
 * run whenever there is an outcome to say.
 */
export const shopperMessage: typeof Sentence = (state, t, amount) =>
  flow?.shopperMessage(state, t, amount) ?? t('unavailable');

function load(): Promise<{ Pg3dsV1: typeof V1; Pg3dsV2: typeof V2; checkoutFlow: typeof Flow }> {
  (globalThis as Record<symbol, unknown>)[Symbol.for('pg-checkout.3ds')] = shared();
  return importBesideScript(FILE);
}

// Not in the way of the first keystroke: fetched on the shopper's first touch of the page (a shopper
// types for seconds before Pay) or 2 s after the load event, whichever comes first; at once when a
// `<pg-3ds-*>` is already in the page. A payment awaits it in any case.
if (document.querySelector('pg-3ds-v1,pg-3ds-v2')) void threeDSReady();
else {
  const soon = new AbortController();
  const fetchNow = (): void => {
    soon.abort();
    void threeDSReady();
  };
  for (const type of ['pointerdown', 'keydown', 'focusin'])
    addEventListener(type, fetchNow, { capture: true, passive: true, signal: soon.signal });
  const later = (): void => void setTimeout(fetchNow, 2000);
  if (document.readyState === 'complete') later();
  else addEventListener('load', later, { once: true, signal: soon.signal });
}
