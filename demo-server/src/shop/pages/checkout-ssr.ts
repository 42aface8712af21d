/**
 * The checkout page's drop-in rendered on the server (@lit-labs/ssr, declarative shadow DOM): on a slow
 * network the card fields are there to type into from the first paint, and Pay names the order's total,
 * long before the script arrives. The browser hydrates it (web/src/checkout.ts) and keeps what was typed.
 */
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html } from 'lit';
import { PAYMENT_METHODS } from '@pg-checkout/protocol/vocabulary';
import { escapeHtml } from '../../platform/html.js';

/**
 * The drop-in's module, named at run time: it is browser code (type-checked in its own package with the
 * DOM's types, which this Node project has not), defined here once for Lit's server render.
 */
const ELEMENTS = '@pg-checkout/elements/checkout.js';
let defined: Promise<unknown> | undefined;

/** The drop-in's tag as the built page writes it (the page is the one place its attributes live). */
const DROP_IN = /<pg-checkout\b[^>]*><\/pg-checkout>/;

/**
 * Puts the server-rendered drop-in in place of the empty `<pg-checkout>` of `page`. `payLabel` is Pay as
 * the drop-in will write it once it read the order ("Pay R 149,00"), for the server's render only: in the
 * browser the drop-in's own reading of the order takes over.
 */
export async function withRenderedCheckout(
  page: string,
  payLabel: string,
  form?: { token: string; notice?: string | undefined },
): Promise<string> {
  await (defined ??= import(ELEMENTS));
  const markup = await collectResult(
    render(
      html`<pg-checkout
        endpoint="/checkout"
        methods=${PAYMENT_METHODS.join(' ')}
        saved-cards
        form-token=${form?.token ?? ''}
        .messages=${{ pay: payLabel }}
      ></pg-checkout>`,
    ),
  );
  if (!DROP_IN.test(page)) throw new Error('the checkout page has no <pg-checkout> to render');
  // A payment the form posted with no script came back: the reason, above the form (a fixed sentence).
  const notice = form?.notice
    ? `<p class="notice" role="alert">${escapeHtml(form.notice)}</p>`
    : '';
  return page.replace(DROP_IN, () => notice + markup);
}
