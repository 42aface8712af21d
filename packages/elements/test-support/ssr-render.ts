/**
 * Server rendering with @lit-labs/ssr, the way Astro, Eleventy or a merchant's own server does it: shared by
 * the Node test (test/ssr.test.ts) and the hydration test in the browser (src/hydration.test.ts), which gets
 * `hydrationPage` rendered by running this file.
 */
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html, type TemplateResult } from 'lit';
import { pathToFileURL } from 'node:url';
import '../src/checkout/checkout.js';
import '../src/card-form/card-form.js';
import '../src/three-ds/3ds-v2.js';
import '../src/three-ds/3ds-v1.js';

export function renderToString(template: TemplateResult): Promise<string> {
  return collectResult(render(template));
}

/**
 * All four elements as a merchant page writes them, a relative endpoint, in Afrikaans; the second drop-in
 * with a card form of the merchant's own in its slot.
 */
export const hydrationPage = html`<pg-checkout endpoint="/checkout" locale="af"></pg-checkout>
  <pg-checkout endpoint="/checkout" locale="af"
    ><pg-card-form locale="af"></pg-card-form
  ></pg-checkout>
  <pg-card-form id="standalone" locale="af"></pg-card-form>
  <pg-3ds-v2 endpoint="/checkout" locale="af"></pg-3ds-v2>
  <pg-3ds-v1 endpoint="/checkout" locale="af"></pg-3ds-v1>`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.stdout.write(await renderToString(hydrationPage));
