import { base64, randomBytes, sha256Base64 } from '../runtime/crypto.js';

const SCRIPT = /<script\b[^>]*>([\s\S]*?)<\/script>/gi;
const URL_ATTR = /\b(?:action|src)\s*=\s*["']([^"']+)["']/gi;

function origins(html: string): string[] {
  const found = new Set<string>();
  for (const match of html.matchAll(URL_ATTR)) {
    const raw = match[1]!.replace(/&amp;/g, '&');
    if (URL.canParse(raw)) {
      const url = new URL(raw);
      if (url.protocol === 'https:' || url.protocol === 'http:') found.add(url.origin);
    }
  }
  return [...found];
}

/**
 * CSP for the bank's method page: only its own inline scripts (by hash) run, and it may post to
 * https: and to the origins its markup names (the ACS), framed only by the shop's page.
 */
export async function methodPageCsp(
  tdsMethodContent: string,
  frameAncestor: string,
): Promise<string> {
  const hashes = await Promise.all(
    [...tdsMethodContent.matchAll(SCRIPT)].map(
      async (m) => `'sha256-${await sha256Base64(m[1]!)}'`,
    ),
  );
  const targets = ['https:', ...origins(tdsMethodContent)].join(' ');
  return [
    "default-src 'none'",
    `script-src ${hashes.join(' ') || "'none'"}`,
    "style-src 'unsafe-inline'",
    `form-action ${targets}`,
    `frame-src ${targets}`,
    `frame-ancestors ${frameAncestor}`,
    "base-uri 'none'",
  ].join('; ');
}

/** Escapes text for a JavaScript string inside a `<script>` block (no `</script>` breakout). */
function jsString(value: string): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026');
}

export type CompletionKind = 'done' | 'checking' | 'rejected' | 'unknown' | 'unavailable';

const COMPLETION_TEXT: Record<CompletionKind, string> = {
  done: 'Thank you. Your bank has answered; the checkout is showing the result.',
  checking:
    'We are confirming your payment with your bank. The checkout will show the result in a moment; please do not pay again.',
  rejected:
    'This could not be used to confirm a payment. If your bank’s page is still open, please finish there.',
  unknown: 'This verification link is not valid or has expired. Please return to the checkout.',
  unavailable:
    'We are checking your payment with your bank. The checkout will show the result in a moment; please do not pay again.',
};

const BUSY_TEXT =
  'Please wait a moment. The checkout will show the result of your payment; please do not pay again.';

/**
 * The page the 3-D Secure frame ends on: a readable sentence for the shopper and, when the
 * checkout page's origin is known, a "done" hint to it (the component reads the result itself).
 */
export function completionPage(
  kind: CompletionKind,
  reference: string | undefined,
  pageOrigin: string | undefined,
): { html: string; csp: string } {
  const nonce = base64(randomBytes(16));
  const notify = reference && pageOrigin && (kind === 'done' || kind === 'checking');
  const script = notify
    ? `<script nonce="${nonce}">parent.postMessage({source:'pg-checkout',type:'3ds-complete',reference:${jsString(reference)}},${jsString(pageOrigin)});</script>`
    : '';
  const style = `<style nonce="${nonce}">body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px;color:#1a1a1a;background:#fff}@media (prefers-color-scheme:dark){body{color:#eee;background:#1e1e1e}}</style>`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Payment</title>${style}</head><body><p role="status">${COMPLETION_TEXT[kind]}</p>${script}</body></html>`;
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
    // Static text may be framed by any checkout page; the page that posts a message only by its own.
    ...(pageOrigin ? [`frame-ancestors ${pageOrigin}`] : []),
  ].join('; ');
  return { html, csp };
}

/** Escapes text for an HTML attribute value in double quotes. */
function attribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

// Static, so the page's CSP allows it by hash; the delay is read from the form.
const CARRY_SCRIPT =
  "var f=document.getElementById('pg-carry');setTimeout(function(){f.submit()},1000*Number(f.getAttribute('data-after')));";
let carryHash: Promise<string> | undefined;

/**
 * The busy page of a bank's post refused for its turn: it carries the proof forward. The same
 * fields in a form to the same URL (the page's own), posted again by itself after `afterS`
 * seconds, or by the shopper with "Continue" when scripts do not run. The fields go in the body
 * only, never in a URL.
 */
export async function carryForwardPage(
  fields: Readonly<Record<string, string>>,
  afterS: number,
): Promise<{ html: string; csp: string }> {
  const nonce = base64(randomBytes(16));
  const hash = await (carryHash ??= sha256Base64(CARRY_SCRIPT));
  const inputs = Object.entries(fields)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${attribute(name)}" value="${attribute(value)}">`,
    )
    .join('');
  const style = `<style nonce="${nonce}">body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px;color:#1a1a1a;background:#fff}@media (prefers-color-scheme:dark){body{color:#eee;background:#1e1e1e}}button{font:inherit;margin-top:8px;padding:8px 16px}</style>`;
  const form = `<form id="pg-carry" method="post" data-after="${Math.max(1, Math.ceil(afterS))}">${inputs}<button type="submit">Continue</button></form>`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Payment</title>${style}</head><body><p role="status">${BUSY_TEXT}</p>${form}<script>${CARRY_SCRIPT}</script></body></html>`;
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${hash}'`,
    `style-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    // The form posts to the page's own URL, nowhere else.
    "form-action 'self'",
  ].join('; ');
  return { html, csp };
}
