/**
 * The payment page's own headers (PCI DSS 6.4.3 and 11.6.1): a nonce-based CSP with 'strict-dynamic',
 * Trusted Types enforced with exactly the elements' policies, the report endpoint, and on request
 * `Integrity-Policy`. The page is the merchant's; these headers go on it, not on the middleware's routes.
 */

/** The Trusted Types policies the elements create: Lit's, and ours for 3-D Secure method content given inline. */
export const TRUSTED_TYPES_POLICIES = ['lit-html', 'pg-checkout'] as const;

/** The name the CSP's `report-to` and `Reporting-Endpoints` give the report route. */
export const REPORT_GROUP = 'pg-checkout';

export interface PaymentPageHeaderOptions {
  /** The gateway's origin (the sandbox's in development): its pages are framed and posted to. */
  gatewayOrigin: string;
  /** The middleware's `publicUrl`, when its origin is not the page's own (`www` and bare, `127.0.0.1` and `localhost`). */
  publicUrl?: string | undefined;
  /** The nonce of the page's `<script>` tags; default a fresh one (16 random bytes, base64). */
  nonce?: string | undefined;
  /** The report route's URL (`'/checkout/reports'`): adds `report-to`, `report-uri` and `Reporting-Endpoints`. */
  reportTo?: string | undefined;
  /** More `script-src` sources (hashes, a CDN's origin). With 'strict-dynamic' browsers ignore host sources. */
  scriptSources?: readonly string[] | undefined;
  /** Adds `Integrity-Policy: blocked-destinations=(script)`: the page runs no script without `integrity`. Default false. */
  integrityPolicy?: boolean | undefined;
}

export interface PaymentPageHeaders {
  /** Put it on each `<script>` (and `<style>`) of the page: `<script nonce="…">`. */
  nonce: string;
  /** Content-Security-Policy, and Reporting-Endpoints and Integrity-Policy when asked for. */
  headers: Record<string, string>;
}

const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-f:.]+\](:\d{1,5})?$/i;
const NONCE = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;
const SOURCE = /^[^\s;,]+$/;

function originOf(name: string, value: string): string {
  let origin: string;
  try {
    origin = new URL(value).origin;
  } catch {
    throw new TypeError(
      `paymentPageHeaders: ${name} must be an absolute http(s) URL, got ${JSON.stringify(value)}`,
    );
  }
  if (!ORIGIN.test(origin))
    throw new TypeError(
      `paymentPageHeaders: ${name} must be an http(s) origin, got ${JSON.stringify(value)}`,
    );
  return origin;
}

function freshNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The headers of a page that runs the drop-in. Frames and form posts may go to any `https:` host (banks'
 * access control servers cannot be listed in advance), to the gateway's origin (the `http:` sandbox's too)
 * and to the middleware's. Throws a `TypeError` naming the option at fault.
 */
export function paymentPageHeaders(options: PaymentPageHeaderOptions): PaymentPageHeaders {
  const gateway = originOf('gatewayOrigin', options.gatewayOrigin);
  const middleware = options.publicUrl ? originOf('publicUrl', options.publicUrl) : undefined;
  const nonce = options.nonce ?? freshNonce();
  if (!NONCE.test(nonce))
    throw new TypeError('paymentPageHeaders: nonce must be base64 of at least 12 random bytes');
  for (const source of options.scriptSources ?? [])
    if (!SOURCE.test(source))
      throw new TypeError(
        `paymentPageHeaders: script source ${JSON.stringify(source)} is not one CSP source`,
      );
  if (options.reportTo !== undefined && !/^(https?:\/\/|\/)[^\s;,"]*$/.test(options.reportTo))
    throw new TypeError(
      'paymentPageHeaders: reportTo must be a path (/checkout/reports) or an http(s) URL',
    );
  const unique = (sources: (string | undefined)[]) =>
    [...new Set(sources.filter(Boolean))].join(' ');
  const shop = unique(["'self'", middleware]);
  const outward = unique(["'self'", middleware, 'https:', gateway]);
  const directives = [
    `default-src 'self'`,
    `script-src ${unique([`'nonce-${nonce}'`, "'strict-dynamic'", ...(options.scriptSources ?? [])])}`,
    `style-src 'self' 'nonce-${nonce}'`,
    `img-src 'self' data:`,
    `connect-src ${shop}`,
    `frame-src ${outward}`,
    `form-action ${outward}`,
    `base-uri 'none'`,
    `object-src 'none'`,
    `frame-ancestors 'none'`,
    `require-trusted-types-for 'script'`,
    `trusted-types ${TRUSTED_TYPES_POLICIES.join(' ')}`,
  ];
  const headers: Record<string, string> = {};
  if (options.reportTo) {
    directives.push(`report-to ${REPORT_GROUP}`, `report-uri ${options.reportTo}`);
    headers['Reporting-Endpoints'] = `${REPORT_GROUP}="${options.reportTo}"`;
  }
  headers['Content-Security-Policy'] = directives.join('; ');
  if (options.integrityPolicy)
    headers['Integrity-Policy'] =
      `blocked-destinations=(script)${options.reportTo ? `, endpoints=(${REPORT_GROUP})` : ''}`;
  return { nonce, headers };
}
