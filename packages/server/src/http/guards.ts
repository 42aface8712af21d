import { CheckoutError, misconfigured } from '../errors.js';
import { callerOf, type Caller } from '../setup/caller.js';
import { ipVersion } from '../limits/ip.js';
import { sayOnce } from '../logger.js';
import type { Context } from '../setup/context.js';
import { REFERENCE } from '../stores/keys.js';
import type { OwnedPayment } from '../use-cases/confirm-step2.js';
import type { HttpExchange } from './exchange.js';

/**
 * The client's address for limits and the gateway's `clientIp`: a valid address, or a setup
 * fault (503 `misconfigured`, said once in the log with the fix); never a shared bucket.
 */
export function clientIpOf(ctx: Context, ex: HttpExchange): string {
  const address = ex.clientAddress;
  if (address && ipVersion(address)) return address;
  sayOnce(
    ctx,
    'client-address',
    'pg-checkout setup error: a request reached the checkout with no client address. Behind a proxy, tell the server to trust it (Express: app.set("trust proxy", 1) or the proxy’s address; the Fetch handler: the clientAddress option). Payments are refused until then, as "not charged".',
    { seen: address ?? '(none)' },
  );
  throw misconfigured();
}

function requestOrigin(ex: HttpExchange): string | undefined {
  const origin = ex.header('origin');
  if (origin && origin !== 'null') return origin;
  const referer = ex.header('referer');
  return referer && URL.canParse(referer) ? new URL(referer).origin : undefined;
}

/** CSRF guard: the page origin a state-changing call came from, once checked against the allowed origins. */
export function checkedOrigin(ctx: Context, ex: HttpExchange): string {
  const origin = requestOrigin(ex);
  const allowed = ctx.allowedOrigins ?? [...new Set([ex.origin ?? '', ctx.publicOrigin])];
  if (!origin || !allowed.includes(origin)) {
    // A dev proxy that rewrites Host (Vite's changeOrigin) lands here: say what was seen.
    ctx.logger.warn('request refused: its origin is not allowed', {
      origin: origin ?? '(none)',
      allowed: allowed.filter(Boolean),
      hint: 'set allowedOrigins, or mount behind a proxy that keeps the Host header',
    });
    throw new CheckoutError(
      'forbidden_origin',
      'This request did not come from the shop’s checkout page.',
    );
  }
  if (origin !== ctx.publicOrigin) warnOnce(ctx, origin);
  return origin;
}

/** Pages on another origin than `publicUrl`'s get 3-D Secure pages from publicUrl: worth a word, once. */
function warnOnce(ctx: Context, origin: string): void {
  if (ctx.said.size > 50) return;
  sayOnce(
    ctx,
    `origin:${origin}`,
    'checkout used from an origin other than publicUrl’s',
    {
      origin,
      publicUrl: ctx.publicUrl,
      hint: '3-D Secure completion pages come from publicUrl; its origin must be allowed in the page’s CSP frame-src',
    },
    'warn',
  );
}

/** The caller of a browser route; `guarded` routes change state and pass the origin guard first. */
export function callerFor(ctx: Context, ex: HttpExchange, guarded: boolean): Caller {
  const pageOrigin = guarded ? checkedOrigin(ctx, ex) : undefined;
  return callerOf(ctx, ex.request, { clientIp: clientIpOf(ctx, ex), pageOrigin });
}

const notFound = () => new CheckoutError('not_found', 'This payment was not found.');

/**
 * The `:reference` of a route that reads or drives a payment, once the browser proved it created
 * it (`X-PG-Client-Secret`). A stranger gets the same 404 as for a reference that does not exist.
 */
export async function ownedReference(ctx: Context, ex: HttpExchange): Promise<OwnedPayment> {
  const reference = ex.params.reference ?? '';
  if (!REFERENCE.test(reference)) throw notFound();
  const merchantReference = await ctx.secrets.ownsPayment(
    reference,
    ex.header('x-pg-client-secret'),
  );
  if (!merchantReference) throw notFound();
  return { reference, merchantReference };
}
