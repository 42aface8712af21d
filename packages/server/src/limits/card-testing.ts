import { CheckoutError, storeUnavailable } from '../errors.js';
import type { CardTestingEvent } from '../options.js';
import type { Context } from '../setup/context.js';
import { clientKey } from './limits.js';

/** Who a card payment's declines count against: its order, and the shopper and client when known. */
export interface DeclineScopes {
  order: string;
  shopperId?: string | undefined;
  clientIp?: string | undefined;
}

type Scope = CardTestingEvent['scope'];

/** What the order's book holds against its decline limit: see `declineHolds` (order/ledger.ts). */
export interface OrderHolds {
  /** When each of its cards the gateway refused was refused (ms since the epoch). */
  declinedAt: number[];
  /** Attempts the gateway may still decline (unanswered, or 3-D Secure under way). */
  undecided: number;
}

/**
 * The store counter of the shopper and client scopes this payment has, with that scope's limit,
 * in this window. The order's declines live in its book, under its lock (see {@link refuseOrderTester}).
 */
function counters(ctx: Context, scopes: Omit<DeclineScopes, 'order'>) {
  const rate = ctx.rateLimit;
  const limits = rate ? rate.declines : false;
  if (!rate || !limits) return undefined;
  const window = Math.floor(ctx.now() / limits.windowMs);
  const list: { scope: Scope; key: string; limit: number }[] = [];
  if (scopes.shopperId)
    list.push({
      scope: 'shopper',
      key: `dl:s:${scopes.shopperId}:${window}`,
      limit: limits.perShopper,
    });
  if (scopes.clientIp)
    list.push({
      scope: 'client',
      key: `dl:ip:${clientKey(scopes.clientIp, rate.ipv6Prefix)}:${window}`,
      limit: limits.perIp,
    });
  const retryAfter = Math.max(1, Math.ceil(((window + 1) * limits.windowMs - ctx.now()) / 1000));
  return { list, windowMs: limits.windowMs, retryAfter };
}

function tooManyDeclines(ctx: Context, scope: Scope, retryAfterSeconds: number): CheckoutError {
  ctx.logger.warn('card payment refused: too many declines', { scope });
  ctx.telemetry.limitHit('declines', scope);
  return new CheckoutError(
    'too_many_declines',
    'Too many cards were declined for this order. Please try again later or choose another way to pay.',
    { retryAfterSeconds },
  );
}

/** A card payment's places under its shopper's and client's decline limits, taken before the gateway. */
export interface DeclineReservation {
  /** The gateway refused the card: the places stay taken, as its declines. */
  declined(order: string): void;
  /** The gateway's answer decided nothing against the card (approved, 3-D Secure, no answer): given back. */
  release(): Promise<void>;
}

const NOTHING_RESERVED: DeclineReservation = {
  declined: () => undefined,
  release: async () => undefined,
};

/**
 * Takes one place under the decline limit of the payment's shopper and client before the gateway
 * is asked: an atomic reserve per scope, refused (`too_many_declines`, the places taken given back)
 * when a scope is full, so no number of concurrent payments sends more cards than the limit allows.
 * Run as `enforceLimits`' last check, so a stopped card tester costs nobody else the ceiling.
 * `store_unavailable` when the store cannot count.
 */
export async function reserveDeclines(
  ctx: Context,
  scopes: Omit<DeclineScopes, 'order'>,
): Promise<DeclineReservation> {
  const found = counters(ctx, scopes);
  if (!found || found.list.length === 0) return NOTHING_RESERVED;
  const taken: { scope: Scope; key: string; limit: number; count: number }[] = [];
  let given = false;
  const giveBack = async () => {
    if (given) return;
    given = true;
    await Promise.all(
      taken.map(({ scope, key }) =>
        ctx.store.release(key).catch((error: unknown) => {
          // Counted as a decline until the window ends: the limit errs on the side of stopping.
          ctx.logger.warn('store write failed; a reserved decline was not given back', {
            scope,
            error,
          });
        }),
      ),
    );
  };
  for (const counter of found.list) {
    let count: number;
    try {
      count = await ctx.store.reserve(counter.key, found.windowMs, counter.limit);
    } catch (error) {
      await giveBack();
      throw storeUnavailable(error);
    }
    if (count === 0) {
      await giveBack();
      throw tooManyDeclines(ctx, counter.scope, found.retryAfter);
    }
    taken.push({ ...counter, count });
  }
  return {
    declined(order) {
      given = true;
      // The payment that took the last place is said once per scope and window.
      for (const { scope, limit, count } of taken)
        if (count === limit) suspected(ctx, { scope, order, declines: count }, found.windowMs);
    },
    release: giveBack,
  };
}

/**
 * Under the order's lock, right before its create: refuses (`too_many_declines`) when the order's
 * declines in the window and its attempts the gateway may still decline fill `perOrder`. The lock
 * makes the check and the attempt it lets through one step: no number of concurrent payments of
 * one order passes the limit.
 */
export function refuseOrderTester(ctx: Context, holds: OrderHolds): void {
  const limits = ctx.rateLimit ? ctx.rateLimit.declines : false;
  if (!limits) return;
  const since = ctx.now() - limits.windowMs;
  const declined = holds.declinedAt.filter((at) => at > since).sort((a, b) => a - b);
  if (declined.length + holds.undecided < limits.perOrder) return;
  // Full of declines: until the oldest that counts leaves the window; else until an attempt is decided.
  const freed =
    declined.length >= limits.perOrder
      ? declined[declined.length - limits.perOrder]! + limits.windowMs
      : ctx.now() + 5_000;
  throw tooManyDeclines(ctx, 'order', Math.max(1, Math.ceil((freed - ctx.now()) / 1000)));
}

/**
 * A card the gateway refused after its create (at Step 2 or at the challenge's confirm): counted
 * against the shopper and client, and said once per scope that reaches its limit (the log and
 * `onSuspectedCardTesting`, counts only). After the gateway answered, so a store failure is
 * logged, never thrown. The order's own count is its book's (see {@link orderDeclined}).
 */
export async function noteDecline(ctx: Context, scopes: DeclineScopes): Promise<void> {
  const found = counters(ctx, scopes);
  if (!found) return;
  await Promise.all(
    found.list.map(async ({ scope, key, limit }) => {
      let count: number;
      try {
        // Counted in the same counter as the places taken, past the limit too.
        count = await ctx.store.reserve(key, found.windowMs, Number.MAX_SAFE_INTEGER);
      } catch (error) {
        ctx.logger.error('store write failed; a decline was not counted', { scope, error });
        return;
      }
      // Reached exactly once per scope and window: later payments of the scope are refused first.
      if (count === limit)
        suspected(ctx, { scope, order: scopes.order, declines: count }, found.windowMs);
    }),
  );
}

/** The order's book just counted a decline: said once when the order reaches its limit. */
export function orderDeclined(ctx: Context, order: string, holds: OrderHolds): void {
  const limits = ctx.rateLimit ? ctx.rateLimit.declines : false;
  if (!limits) return;
  const since = ctx.now() - limits.windowMs;
  const count = holds.declinedAt.filter((at) => at > since).length;
  if (count === limits.perOrder)
    suspected(ctx, { scope: 'order', order, declines: count }, limits.windowMs);
}

function suspected(
  ctx: Context,
  { scope, order, declines }: { scope: Scope; order: string; declines: number },
  windowMs: number,
): void {
  const event: CardTestingEvent = { scope, orderReference: order, declines, windowMs };
  ctx.logger.warn('card testing suspected', { ...event });
  ctx.telemetry.suspectedCardTesting(scope);
  tell(ctx, event);
}

/** Runs the merchant's hook without holding up the shopper's answer; a throw is logged. */
function tell(ctx: Context, event: CardTestingEvent): void {
  const hook = ctx.options.onSuspectedCardTesting;
  if (!hook) return;
  void Promise.resolve()
    .then(() => hook(event))
    .catch((error: unknown) =>
      ctx.logger.error('onSuspectedCardTesting threw', { scope: event.scope, error }),
    );
}
