import type { Context } from '../setup/context.js';
import { orderKeys } from '../stores/keys.js';
import { clientKey } from './limits.js';

/** After a refused proof, how long the same client waits before its next post to that session. */
export const AFTER_REFUSED_MS = 1_000;
/** A turn held by a post in flight; it frees itself if the instance dies mid-call. */
const IN_FLIGHT_MS = 60_000;

/** How a bank's post ended, as its turn sees it. */
export type PostEnd = 'refused' | 'ended';

export type BankTurn =
  { granted: true; finish(end: PostEnd): Promise<void> } | { granted: false; retryAfterS: number };

const free: BankTurn = { granted: true, finish: async () => undefined };

/**
 * The turn of one bank's post (`callback`/`term`) before any gateway call: one post of a session
 * and client at a time, the next one from a client whose proof was refused only after
 * {@link AFTER_REFUSED_MS}, and per client at most `perIp` posts that reach the gateway per window.
 * Counted per client, so a stranger's junk never slows the shopper's own post. A store outage
 * lets the post through: a bank's proof is never lost to it. A post refused its turn is not lost
 * either: its page posts the same proof again after `retryAfterS` (`carryForwardPage`, http/html.ts).
 */
export async function takeBankTurn(
  ctx: Context,
  attempt: { order: string; n: number },
  clientIp: string | undefined,
): Promise<BankTurn> {
  const limits = ctx.rateLimit;
  if (!limits) return free;
  // Without an address (a setup fault said elsewhere) the post is limited per session only.
  const client = clientIp ? clientKey(clientIp, limits.ipv6Prefix) : 'unknown';
  const key = orderKeys(attempt.order).bankTurn(attempt.n, client);
  try {
    if (!(await ctx.store.setIfAbsent(key, '1', IN_FLIGHT_MS)))
      return { granted: false, retryAfterS: 1 };
    const window = Math.floor(ctx.now() / limits.windowMs);
    if (
      clientIp &&
      (await ctx.store.increment(`rl:bank:${client}:${window}`, limits.windowMs)) > limits.perIp
    ) {
      ctx.logger.warn('3-D Secure post rate limit hit', { bucket: 'bank' });
      ctx.telemetry.limitHit('bank_post', 'client');
      await ctx.store.delete(key);
      const retryAfterS = Math.ceil(((window + 1) * limits.windowMs - ctx.now()) / 1000);
      return { granted: false, retryAfterS: Math.max(1, retryAfterS) };
    }
  } catch (error) {
    ctx.logger.error('store unavailable; the bank’s post goes through unlimited', { error });
    return free;
  }
  return {
    granted: true,
    async finish(end) {
      try {
        if (end === 'refused') await ctx.store.set(key, '1', AFTER_REFUSED_MS);
        else await ctx.store.delete(key);
      } catch (error) {
        ctx.logger.warn('store write failed; a bank post’s turn frees itself later', { error });
      }
    },
  };
}
