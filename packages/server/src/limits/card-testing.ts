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

/** The store counter of each scope this payment has, with that scope's limit, in this window. */
function counters(ctx: Context, scopes: DeclineScopes) {
  const rate = ctx.rateLimit;
  const limits = rate ? rate.declines : false;
  if (!rate || !limits) return undefined;
  const window = Math.floor(ctx.now() / limits.windowMs);
  const list: { scope: Scope; key: string; limit: number }[] = [
    { scope: 'order', key: `dl:o:${scopes.order}:${window}`, limit: limits.perOrder },
  ];
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

/**
 * Refuses a card payment (`too_many_declines`) when its order, shopper or client already had
 * as many declines as allowed in this window: before the gateway, and (run as `enforceLimits`'
 * last check) not counted toward the ceiling, so a stopped card tester costs nobody else.
 * `store_unavailable` when the store cannot say.
 */
export async function refuseCardTester(ctx: Context, scopes: DeclineScopes): Promise<void> {
  const found = counters(ctx, scopes);
  if (!found) return;
  let counts: (string | undefined)[];
  try {
    counts = await Promise.all(found.list.map(({ key }) => ctx.store.get(key)));
  } catch (error) {
    throw storeUnavailable(ctx.logger, error);
  }
  const full = found.list.find(({ limit }, i) => Number(counts[i] ?? 0) >= limit);
  if (!full) return;
  ctx.logger.warn('card payment refused: too many declines', { scope: full.scope });
  ctx.telemetry.limitHit('declines', full.scope);
  throw new CheckoutError(
    'too_many_declines',
    'Too many cards were declined for this order. Please try again later or choose another way to pay.',
    { retryAfterSeconds: found.retryAfter },
  );
}

/**
 * Counts one card the gateway refused against each scope; the scope that reaches its limit is
 * said once (the log and `onSuspectedCardTesting`, counts only). After the gateway answered, so a
 * store failure is logged, never thrown.
 */
export async function noteDecline(ctx: Context, scopes: DeclineScopes): Promise<void> {
  const found = counters(ctx, scopes);
  if (!found) return;
  await Promise.all(
    found.list.map(async ({ scope, key, limit }) => {
      let count: number;
      try {
        count = await ctx.store.increment(key, found.windowMs);
      } catch (error) {
        ctx.logger.error('store write failed; a decline was not counted', { scope, error });
        return;
      }
      // Reached exactly once per scope and window: later payments of the scope are refused first.
      if (count !== limit) return;
      const event: CardTestingEvent = {
        scope,
        orderReference: scopes.order,
        declines: count,
        windowMs: found.windowMs,
      };
      ctx.logger.warn('card testing suspected', { ...event });
      ctx.telemetry.suspectedCardTesting(scope);
      tell(ctx, event);
    }),
  );
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
