import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/**
 * A strict, nonce-based Content-Security-Policy for the shop's pages, the policy DESIGN and the
 * README recommend to merchants: no 'unsafe-inline' scripts; frames and form posts may go to any
 * https: bank (access control servers cannot be listed in advance) and to the sandbox's origin.
 * The shop's public origin is allowed beside the page's own ('self'): a shopper on another name of
 * the shop (127.0.0.1 and localhost, www and bare) gets 3-D Secure completion pages from the public
 * origin inside the challenge frame.
 */
export function contentSecurityPolicy(
  nonce: string,
  gatewayOrigin: string,
  shopOrigin: string,
): string {
  const shop = `'self' ${shopOrigin}`;
  const bank = `https: ${gatewayOrigin}`;
  return [
    `default-src 'self'`,
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'nonce-${nonce}'`,
    `img-src 'self' data:`,
    `connect-src ${shop}`,
    `frame-src ${shop} ${bank}`,
    `form-action ${shop} ${bank}`,
    `base-uri 'none'`,
    `object-src 'none'`,
    `frame-ancestors 'none'`,
  ].join('; ');
}

/** Gives each page response a fresh nonce in res.locals.nonce and the CSP header that allows it. */
export function cspMiddleware(gatewayOrigin: string, shopOrigin: string) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const nonce = randomBytes(16).toString('base64');
    res.locals.nonce = nonce;
    res.setHeader(
      'Content-Security-Policy',
      contentSecurityPolicy(nonce, gatewayOrigin, shopOrigin),
    );
    next();
  };
}

/** Adds the nonce to every script and style element of a built page. */
export function withNonce(html: string, nonce: string): string {
  return html.replace(/<(script|style)\b/g, `<$1 nonce="${nonce}"`);
}
