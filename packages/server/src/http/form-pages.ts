/**
 * The pages of a card payment made with no script (docs/contracts.md, issue 36): the bank's method step
 * as an iframe's own document, a 3-D Secure challenge behind a button, and short notices. None has a
 * script of its own; each moves on by a form post, a link or a meta refresh.
 */
import { successStatus } from './answers.js';
import { base64, randomBytes } from '../runtime/crypto.js';
import type { HttpAnswer } from './exchange.js';
import { methodPageCsp } from './html.js';

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

/** Escapes text for HTML content and double-quoted attribute values. */
const escape = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px;color:#1a1a1a;background:#fff}main{max-width:32rem;margin:0 auto}h1{font-size:1.5rem;line-height:1.25}button{font:inherit;padding:.75rem 1.25rem;border-radius:8px;border:0;background:#1a56db;color:#fff;cursor:pointer}@media (prefers-color-scheme:dark){body{color:#eee;background:#1e1e1e}}';

function shell(title: string, body: string, head = '', style = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>${head}<style${style}>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

const refresh = (url: string, seconds: number) =>
  `<meta http-equiv="refresh" content="${seconds};url=${escape(url)}">`;

/**
 * The method step: `tdsMethodContent` exactly as the gateway returned it, as a hidden iframe's own
 * document (`srcdoc`, so its scripts run there and only there), and a refresh to Step 2 three seconds
 * later. The page's CSP is the method page's (an srcdoc document runs under its parent's policy).
 */
export async function methodStepPage(content: string, continueUrl: string): Promise<HttpAnswer> {
  const body = `<h1>Checking with your bank…</h1><p role="status">This takes a few seconds and the page moves on by itself. Please do not pay again.</p><p><a href="${escape(continueUrl)}">Continue</a></p><iframe hidden title="Your bank" sandbox="allow-scripts allow-forms" srcdoc="${escape(content)}"></iframe>`;
  return {
    status: successStatus('ok'),
    headers: {
      ...PAGE_HEADERS,
      'Content-Security-Policy': await methodPageCsp(content, "'none'"),
    },
    body: shell('Checking with your bank', body, refresh(continueUrl, 3)),
  };
}

/** A top-level post to the bank's page behind a visible button: no script moves the shopper. */
export function bankPage(acsUrl: string, fields: Record<string, string>): HttpAnswer {
  const nonce = base64(randomBytes(16));
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('');
  const target = URL.canParse(acsUrl) ? new URL(acsUrl).origin : '';
  const body = `<h1>Your bank wants to confirm it is you</h1><p>You will enter a code from your bank on its own page, then come back here.</p><form method="post" action="${escape(acsUrl)}">${inputs}<button type="submit">Continue to your bank</button></form>`;
  return {
    status: successStatus('ok'),
    headers: {
      ...PAGE_HEADERS,
      'Content-Security-Policy': [
        "default-src 'none'",
        `style-src 'nonce-${nonce}'`,
        `form-action https: ${target}`.trim(),
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
    },
    body: shell('Continue to your bank', body, '', ` nonce="${nonce}"`),
  };
}

/** A notice: a sentence, a link onward and, for a page that should look again, a refresh. */
export function noticePage(
  status: number,
  title: string,
  text: string,
  link?: { href: string; label: string },
  refreshTo?: string,
): HttpAnswer {
  const nonce = base64(randomBytes(16));
  const body = `<h1>${escape(title)}</h1><p role="status">${escape(text)}</p>${link ? `<p><a href="${escape(link.href)}">${escape(link.label)}</a></p>` : ''}`;
  return {
    status,
    headers: {
      ...PAGE_HEADERS,
      'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    },
    body: shell(title, body, refreshTo ? refresh(refreshTo, 3) : '', ` nonce="${nonce}"`),
  };
}

/** A 303 to `location`. */
export const seeOther = (location: string): HttpAnswer => ({
  status: successStatus('see_other'),
  headers: { ...PAGE_HEADERS, Location: location },
  body: '',
});

const NOTICES: Record<string, string> = {
  card_declined: 'Your card was declined and nothing was charged. You can try another card.',
  declined: 'Your card was declined and nothing was charged. You can try another card.',
  authentication_failed:
    'Your bank could not confirm it was you, so nothing was charged. You can try again.',
  authentication_cancelled: 'The bank check was cancelled and nothing was charged.',
  invalid_request: 'Please check the card details: something in them is not right.',
  amount_changed: 'The total has changed and nothing was charged. Please check it and pay again.',
  rate_limited: 'Too many attempts. Please wait a minute and try again.',
  too_many_declines: 'Too many declined attempts. Please wait a while before trying again.',
  order_changed:
    'This order was paid for another total. Nothing more was charged; please contact the shop.',
};

/**
 * The sentence a shop shows above its form for the `pg_declined` code the middleware sent the shopper
 * back with: a fixed sentence per code (never text from the URL), `undefined` for no code.
 */
export function formNotice(code: string | null | undefined): string | undefined {
  if (!code) return undefined;
  return (
    NOTICES[code] ?? 'The payment did not go through. Please check your order before trying again.'
  );
}
