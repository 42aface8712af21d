import { isIP } from 'node:net';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { CheckoutError } from '../errors.js';
import type { Context } from './context.js';
import { REFERENCE } from './keys.js';

/** The shopper's IP for the gateway's `clientIp`: a valid address or nothing, whatever headers say. */
export function clientIpOf(req: Request): string {
  if (typeof req.ip === 'string' && isIP(req.ip)) return req.ip;
  const socket = req.socket.remoteAddress;
  return socket && isIP(socket) ? socket : '';
}

const notFound = () => new CheckoutError(404, 'not_found', 'This payment was not found.');

/**
 * The `:reference` of a route that reads or drives a payment, once the browser proved it created
 * it (`X-PG-Client-Secret`). A stranger gets the same 404 as for a reference that does not exist.
 */
export function ownedReference(
  ctx: Context,
  req: Request,
): { reference: string; merchantReference: string } {
  const reference = String(req.params.reference ?? '');
  if (!REFERENCE.test(reference)) throw notFound();
  const merchantReference = ctx.secrets.ownsPayment(reference, req.get('x-pg-client-secret'));
  if (!merchantReference) throw notFound();
  return { reference, merchantReference };
}

/** A store failure before anything was sent to the gateway: nothing was charged, say so. */
export function storeUnavailable(ctx: Context, error: unknown): CheckoutError {
  if (error instanceof CheckoutError) return error;
  ctx.logger.error('store unavailable', { error });
  return new CheckoutError(
    503,
    'store_unavailable',
    'We could not start the payment right now. Nothing was charged; please try again in a moment.',
    { 'Retry-After': '5' },
  );
}

/** Lets async handlers reject into Express's error handler (Express 4 does not do it itself). */
export function asyncRoute(
  handler: (req: Request, res: Response) => Promise<void>,
): RequestHandler {
  return (req, res, next) => {
    handler(req, res).catch(next);
  };
}

/**
 * Answers JSON. Unlike `res.json` it computes no ETag: these answers are never cached
 * (`Cache-Control: no-store`), and hashing every payment's answer cost CPU on the hot path.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

function requestOrigin(req: Request): string | undefined {
  const origin = req.get('origin');
  if (origin && origin !== 'null') return origin;
  const referer = req.get('referer');
  return referer && URL.canParse(referer) ? new URL(referer).origin : undefined;
}

/** The page origin a state-changing call came from, once checked against the allowed origins. */
export function checkedOrigin(ctx: Context, req: Request): string {
  const origin = requestOrigin(req);
  const allowed = ctx.allowedOrigins ?? [
    `${req.protocol}://${req.get('host') ?? ''}`,
    ctx.publicOrigin,
  ];
  if (!origin || !allowed.includes(origin)) {
    // A dev proxy that rewrites Host (Vite's changeOrigin) lands here: say what was seen.
    ctx.logger.warn('request refused: its origin is not allowed', {
      origin: origin ?? '(none)',
      allowed,
      hint: 'set allowedOrigins, or mount behind a proxy that keeps the Host header',
    });
    throw new CheckoutError(
      403,
      'forbidden_origin',
      'This request did not come from the shop’s checkout page.',
    );
  }
  if (origin !== ctx.publicOrigin) warnOnce(ctx, origin);
  return origin;
}

const warnedOrigins = new WeakMap<Context, Set<string>>();

/** Pages on another origin than `publicUrl`'s get 3-D Secure pages from publicUrl: worth a word, once. */
function warnOnce(ctx: Context, origin: string): void {
  let seen = warnedOrigins.get(ctx);
  if (!seen) warnedOrigins.set(ctx, (seen = new Set()));
  if (seen.has(origin) || seen.size > 20) return;
  seen.add(origin);
  ctx.logger.warn('checkout used from an origin other than publicUrl’s', {
    origin,
    publicUrl: ctx.publicUrl,
    hint: '3-D Secure completion pages come from publicUrl; its origin must be allowed in the page’s CSP frame-src',
  });
}

/** CSRF guard for state-changing browser routes. */
export function originGuard(ctx: Context): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    try {
      scratch(req).pageOrigin = checkedOrigin(ctx, req);
      next();
    } catch (error) {
      next(error);
    }
  };
}

const scratchSpace = new WeakMap<Request, { pageOrigin?: string }>();

/** Per-request scratch space typed for this package (kept off the request object's own shape). */
export function scratch(req: Request): { pageOrigin?: string } {
  let space = scratchSpace.get(req);
  if (!space) scratchSpace.set(req, (space = {}));
  return space;
}

/** Fixed-window counter over the store; throws 429 once `limit` is passed within the window. */
export async function enforceLimit(
  ctx: Context,
  bucket: string,
  limit: number,
  windowMs: number,
): Promise<void> {
  const now = Date.now();
  const window = Math.floor(now / windowMs);
  let count: number;
  try {
    count = await ctx.store.increment(`rl:${bucket}:${window}`, windowMs);
  } catch (error) {
    throw storeUnavailable(ctx, error);
  }
  if (count > limit) {
    const retryAfter = Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000));
    ctx.logger.warn('payment rate limit hit', { bucket: bucket.split(':')[0] });
    throw new CheckoutError(
      429,
      'rate_limited',
      'Too many payment attempts. Please wait a moment and try again.',
      {
        'Retry-After': String(retryAfter),
      },
    );
  }
}
