import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { paymentPageHeaders } from '@pg-checkout/express';

/**
 * Gives each page response a fresh nonce in res.locals.nonce and the payment page's headers from
 * `paymentPageHeaders`, the policy the README recommends to merchants: no 'unsafe-inline' scripts,
 * Trusted Types enforced, reports to the middleware; frames and form posts to any https: bank (access
 * control servers cannot be listed in advance) and to the sandbox's origin. The shop's public origin is
 * allowed beside the page's own: a shopper on another name of the shop (127.0.0.1 and localhost, www and
 * bare) gets 3-D Secure completion pages from the public origin inside the challenge frame.
 */
export function cspMiddleware(gatewayOrigin: string, shopOrigin: string) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const { nonce, headers } = paymentPageHeaders({
      gatewayOrigin,
      publicUrl: shopOrigin,
      nonce: randomBytes(16).toString('base64'),
      reportTo: '/checkout/reports',
    });
    res.locals.nonce = nonce;
    res.set(headers);
    next();
  };
}

/** Adds the nonce to every script and style element of a built page. */
export function withNonce(html: string, nonce: string): string {
  return html.replace(/<(script|style)\b/g, `<$1 nonce="${nonce}"`);
}
