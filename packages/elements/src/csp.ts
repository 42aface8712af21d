/**
 * For servers that render the elements with `@lit-labs/ssr` under a Content Security Policy. Imports the
 * classes only: nothing is defined.
 */
import type { CSSResult, LitElement } from 'lit';
import { Pg3dsV1 } from './three-ds/3ds-v1.component.js';
import { Pg3dsV2 } from './three-ds/3ds-v2.component.js';
import { PgCardForm } from './card-form/card-form.component.js';
import { PgCheckout } from './checkout/checkout.component.js';

const classes: Array<typeof LitElement> = [PgCheckout, PgCardForm, Pg3dsV2, Pg3dsV1];

/**
 * The CSP hash sources (`'sha256-…'`, quotes included) of the `<style>` that `@lit-labs/ssr` writes into
 * each element's declarative shadow root: `style-src 'self' ${hashes.join(' ')}` styles a server-rendered
 * drop-in before it hydrates, without `'unsafe-inline'`. Computed from the classes this build loads, so
 * they follow the package version. Without them the elements are unstyled until they hydrate.
 */
export async function serverStyleHashes(): Promise<string[]> {
  const hashes = new Set<string>();
  for (const element of classes) {
    // Lit builds elementStyles when a class is finalized (on define, or here for classes never defined).
    (element as unknown as { finalize(): void }).finalize();
    // Lit SSR writes the element's styles one after the other into one <style>.
    const text = element.elementStyles.map((style) => (style as CSSResult).cssText).join('');
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
    hashes.add(`'sha256-${base64(new Uint8Array(digest))}'`);
  }
  return [...hashes];
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
