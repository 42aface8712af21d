import { CheckoutError, storeUnavailable } from '../errors.js';
import type { Caller } from '../setup/caller.js';
import { parseIPv6 } from './ip.js';
import type { Context, Limits } from '../setup/context.js';

/** What a limited route does: starts a payment, changes saved cards, or reads what the gateway says. */
export type LimitKind = 'pay' | 'cards' | 'read';

/**
 * The bucket a client is counted in: an IPv4 address as it is (an IPv4-mapped IPv6 address as its
 * IPv4), an IPv6 address by its network prefix (one home line has 2^64 addresses).
 */
export function clientKey(ip: string, ipv6Prefix: number): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const words = parseIPv6(ip);
  if (!words) return ip;
  const bits = Math.max(0, Math.min(128, ipv6Prefix));
  const kept = words.map((word, i) => {
    const from = i * 16;
    if (bits >= from + 16) return word;
    if (bits <= from) return 0;
    return word & (0xffff << (16 - (bits - from)));
  });
  return `${kept.map((w) => w.toString(16)).join(':')}/${bits}`;
}

/** The per-instance ceiling: counted in process, so a limit costs no store round trip more. */
const ceilings = new WeakMap<Context, Map<string, number>>();

/**
 * Takes a place under the instance's ceiling for one request, or `undefined` when it is full.
 * The place is given back with the returned function when another limit refuses the request:
 * the ceiling counts only work that may reach the gateway, so refused floods cost nobody else.
 */
function takeCeiling(
  ctx: Context,
  limits: Limits,
  kind: LimitKind,
  window: number,
): (() => void) | undefined {
  let counts = ceilings.get(ctx);
  if (!counts) ceilings.set(ctx, (counts = new Map()));
  const key = `${kind}:${window}`;
  const count = counts.get(key) ?? 0;
  if (count === 0)
    for (const old of counts.keys()) if (!old.endsWith(`:${window}`)) counts.delete(old);
  if (count >= limits.ceiling[kind]) return undefined;
  counts.set(key, count + 1);
  return () => {
    const now = counts.get(key);
    if (now) counts.set(key, now - 1);
  };
}

const LOGGED: Record<LimitKind, string> = {
  pay: 'payment',
  cards: 'saved-card',
  read: 'status read',
};

const MESSAGES: Record<LimitKind, string> = {
  pay: 'Too many payment attempts. Please wait a moment and try again.',
  cards: 'Too many changes to saved cards. Please wait a moment and try again.',
  read: 'Too many requests. Please wait a moment and try again.',
};

function limited(ctx: Context, limits: Limits, kind: LimitKind, bucket: string, window: number) {
  const retryAfter = Math.max(1, Math.ceil(((window + 1) * limits.windowMs - ctx.now()) / 1000));
  ctx.logger.warn(`${LOGGED[kind]} rate limit hit`, { bucket });
  ctx.telemetry.limitHit(
    kind,
    bucket === 'instance' ? 'instance' : bucket.startsWith('shopper') ? 'shopper' : 'client',
  );
  return new CheckoutError('rate_limited', MESSAGES[kind], { retryAfterSeconds: retryAfter });
}

/**
 * Fixed-window limits of one request: under the instance's ceiling for its kind, then per client
 * (and per shopper for payment starts), counted in the store so every instance shares them.
 * Throws `rate_limited` past any of them, `store_unavailable` when the store cannot count; only a
 * request that passed them all (and `alsoCheck`) keeps its place under the ceiling. Each count is an
 * atomic increment checked after it: no number of concurrent requests passes a limit. Returns the
 * function that gives the ceiling's place back, for a limit checked later (the order's declines).
 */
export async function enforceLimits(
  ctx: Context,
  caller: Caller,
  kind: LimitKind,
  shopperId?: string,
  /** One more limit of the route (the card-tester stop); a refusal there gives the place back too. */
  alsoCheck?: () => Promise<void>,
): Promise<() => void> {
  const limits = ctx.rateLimit;
  if (!limits) return () => undefined;
  const window = Math.floor(ctx.now() / limits.windowMs);
  const release = takeCeiling(ctx, limits, kind, window);
  if (!release) throw limited(ctx, limits, kind, 'instance', window);
  const client = clientKey(caller.clientIp, limits.ipv6Prefix);
  const perClient = kind === 'read' ? limits.reads : limits.perIp;
  const buckets: [string, number][] = [[`${kind === 'pay' ? 'ip' : kind}:${client}`, perClient]];
  if (shopperId && kind !== 'read')
    buckets.push([`shopper${kind === 'pay' ? '' : `-${kind}`}:${shopperId}`, limits.perShopper]);
  try {
    for (const [bucket, limit] of buckets) {
      let count: number;
      try {
        count = await ctx.store.increment(`rl:${bucket}:${window}`, limits.windowMs);
      } catch (error) {
        throw storeUnavailable(error);
      }
      if (count > limit) throw limited(ctx, limits, kind, bucket.split(':')[0]!, window);
    }
    await alsoCheck?.();
  } catch (error) {
    release();
    throw error;
  }
  return release;
}
