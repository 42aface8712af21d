import { createHash, randomBytes } from 'node:crypto';

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
export function methodPageCsp(tdsMethodContent: string, frameAncestor: string): string {
  const hashes = [...tdsMethodContent.matchAll(SCRIPT)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`,
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

/** The page the 3-D Secure iframe ends on; it tells the parent the flow is done, nothing more. */
export function completionPage(
  reference: string | undefined,
  pageOrigin: string | undefined,
): { html: string; csp: string } {
  const nonce = randomBytes(16).toString('base64');
  const script =
    reference && pageOrigin
      ? `<script nonce="${nonce}">parent.postMessage({source:'pg-checkout',type:'3ds-complete',reference:${jsString(reference)}},${jsString(pageOrigin)});</script>`
      : '';
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>Payment</title></head><body><p>Authentication finished. You can close this window.</p>${script}</body></html>`;
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${pageOrigin ?? "'none'"}`,
  ].join('; ');
  return { html, csp };
}
