import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Ctx } from './context.js';
import { badRequest } from './errors.js';

const HEX64 = /^[0-9a-fA-F]{64}$/;

/** HMAC-SHA256 hex of the absolute URL, plus "\n" and the body for POST, trimmed (spec, Authentication). */
export function computeSignature(url: string, body: string | undefined, secret: string): string {
  const data = (body === undefined ? url : `${url}\n${body}`).trim();
  return createHmac('sha256', secret).update(data).digest('hex');
}

/** The absolute URLs a client may have used: scheme + Host header + raw path, and publicUrl's origin. */
export function candidateUrls(ctx: Ctx, req: Request): string[] {
  const host = req.get('host');
  const urls = host ? [`${req.protocol}://${host}${req.originalUrl}`] : [];
  if (ctx.publicUrl) {
    const origin = new URL(ctx.publicUrl).origin;
    urls.push(`${origin}${req.originalUrl}`);
  }
  return urls;
}

function matches(expectedHex: string, given: string): boolean {
  // Hex is case-insensitive: upper-case signatures are accepted too.
  const a = Buffer.from(expectedHex, 'hex');
  const b = Buffer.from(given, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

function forbidden(res: Response, message: string): void {
  res.status(403).json({ success: false, message, code: -1 });
}

/**
 * Checks X-Token and X-Signature over the raw body bytes as received, then parses JSON.
 * Invalid JSON is a 400 only after the signature passed, so unsigned junk learns nothing.
 */
export function authenticate(ctx: Ctx) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const token = req.get('x-token');
    const signature = req.get('x-signature');
    if (!token) return forbidden(res, 'X-Token header is missing');
    if (token !== ctx.token)
      return forbidden(res, 'Unknown X-Token: use the token of this environment');
    if (!signature) return forbidden(res, 'X-Signature header is missing');
    if (!HEX64.test(signature))
      return forbidden(res, 'X-Signature must be 64 hexadecimal characters');
    const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : raw;
    const ok = candidateUrls(ctx, req).some((url) =>
      matches(computeSignature(url, body, ctx.secret), signature),
    );
    if (!ok) {
      return forbidden(
        res,
        'X-Signature does not match: sign the absolute request URL and the exact body bytes sent, with the secret of this environment',
      );
    }
    if (body !== undefined) {
      const r = req as Request & { json?: unknown; rawJson?: string };
      r.rawJson = raw;
      if (raw.trim() === '') {
        r.json = undefined;
      } else {
        try {
          r.json = JSON.parse(raw);
        } catch (err) {
          return next(
            badRequest(
              `The request body is not valid JSON: ${err instanceof Error ? err.message : 'parse error'}`,
            ),
          );
        }
      }
    }
    next();
  };
}
