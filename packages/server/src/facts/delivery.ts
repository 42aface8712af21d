import { base64url, randomBytes } from '../runtime/crypto.js';
import type { PaymentEvent, RefundEvent } from '../options.js';
import type { PaymentState } from '../payment-state.js';
import type { Context } from '../setup/context.js';
import { paymentKeys } from '../stores/keys.js';
import { enqueueSafely, type FactKind } from './sweep-list.js';

export type { FactKind } from './sweep-list.js';

/** One money fact, keyed by the gateway reference of the payment (or refund) it is about. */
export type Fact =
  | { kind: 'completed' | 'failed' | 'pending'; reference: string; event: PaymentEvent }
  | { kind: 'refunded'; reference: string; event: RefundEvent };

/** What the store keeps of a fact whose hook has not resolved. */
export interface OutboxEntry {
  fact: Fact;
  /** Hook calls that threw so far. */
  attempts: number;
  /** When the first call threw (ms since the epoch). */
  firstFailedAt: number;
}

export type DeliveryResult = 'delivered' | 'already' | 'busy' | 'failed' | 'no_hook' | 'no_store';

/** How long an outbox entry lives: a week of retries and sweeps. */
export const FACT_TTL_MS = 7 * 24 * 60 * 60_000;
/**
 * How long a delivered mark lives: past the sweep's default window (24 hours), so the sweep never
 * hands a fact over again; no longer, since a MemoryStore holds one per payment.
 */
export const MARK_TTL_MS = 25 * 60 * 60_000;
// Lock tokens: unique per process (a random prefix) and per call (a counter), cheaper than random bytes.
// Made at the first delivery, not at import: Workers refuse random values in the global scope.
let tokenPrefix: string | undefined;
let tokens = 0;
/** One hook call holds the fact this long; a hook slower than this may overlap a retry. */
const LOCK_TTL_MS = 60_000;
const RUNNING = 'running:';
/** The mark's value once delivered: what earlier versions set, so their marks count. */
const DELIVERED = '1';

/** The fact a payment state is, or `undefined` for a state that is not one (3-D Secure under way). */
export function factKindOf(state: PaymentState): FactKind | undefined {
  switch (state.status) {
    case 'approved':
      return 'completed';
    case 'pending':
      return 'pending';
    case 'declined':
    case 'failed':
      return 'failed';
    default:
      return undefined;
  }
}

function hookOf(ctx: Context, kind: FactKind): ((event: never) => unknown) | undefined {
  const { options } = ctx;
  return kind === 'completed'
    ? options.onPaymentCompleted
    : kind === 'failed'
      ? options.onPaymentFailed
      : kind === 'pending'
        ? options.onPaymentPending
        : options.onRefundCompleted;
}

/** The hook's name in metrics (`pg_checkout.hook`). */
const HOOK_NAMES: Record<FactKind, string> = {
  completed: 'payment_completed',
  failed: 'payment_failed',
  pending: 'payment_pending',
  refunded: 'refund',
};

/** Whether this checkout has a hook for the kind: without one there is nothing to deliver. */
export const wantsFact = (ctx: Context, kind: FactKind): boolean => Boolean(hookOf(ctx, kind));

/**
 * Hands a fact to the merchant's hook at least once: marked delivered only after the hook
 * resolved; while it runs, no other call starts it (a short lock); a throw keeps it in the outbox
 * (for the sweep, here or on another instance) and schedules a retry in this process.
 * `requireStore`: without the store, do not run the hook (the sweep would repeat it every run).
 */
export async function deliver(
  ctx: Context,
  fact: Fact,
  {
    attempt = 0,
    enqueue = true,
    requireStore = false,
  }: { attempt?: number; enqueue?: boolean; requireStore?: boolean } = {},
): Promise<DeliveryResult> {
  const hook = hookOf(ctx, fact.kind);
  if (!hook) return 'no_hook';
  const keys = paymentKeys(fact.reference);
  // One key per fact: `running:<token>` while a call holds it (the lock), `1` once delivered.
  const mark = keys.delivered(fact.kind);
  const running = `${RUNNING}${(tokenPrefix ??= base64url(randomBytes(6)))}.${++tokens}`;
  let stored = true;
  try {
    if (!(await ctx.store.setIfAbsent(mark, running, LOCK_TTL_MS))) {
      const value = await ctx.store.get(mark);
      return value === undefined || value.startsWith(RUNNING) ? 'busy' : 'already';
    }
  } catch (error) {
    if (requireStore) return 'no_store';
    // Without the store the hook may run twice; never running it would lose a fulfilment.
    ctx.logger.error('store unavailable; running the merchant hook without de-duplication', {
      reference: fact.reference,
      fact: fact.kind,
      error,
    });
    stored = false;
  }
  try {
    await (hook as (event: Fact['event']) => unknown)(fact.event);
    ctx.telemetry.hookDelivery(HOOK_NAMES[fact.kind], 'delivered');
  } catch (error) {
    ctx.telemetry.hookDelivery(HOOK_NAMES[fact.kind], 'failed');
    ctx.logger.error('merchant hook threw; it will be called again', {
      reference: fact.reference,
      fact: fact.kind,
      attempt: attempt + 1,
      error,
    });
    if (stored) await keep(ctx, fact, attempt + 1, enqueue, running);
    scheduleRetry(ctx, fact, attempt + 1);
    return 'failed';
  }
  cancelRetry(ctx, fact);
  try {
    await ctx.store.set(mark, DELIVERED, MARK_TTL_MS);
    // A first call from the request that learned the fact left no outbox entry to drop.
    if (attempt > 0 || requireStore) await ctx.store.delete(keys.outbox(fact.kind));
  } catch (error) {
    ctx.logger.error('store write failed after a hook resolved; it may be called again', {
      reference: fact.reference,
      fact: fact.kind,
      error,
    });
  }
  return 'delivered';
}

/** Keeps a fact whose hook threw in the outbox and, the first time, on the sweep's list. */
async function keep(
  ctx: Context,
  fact: Fact,
  attempts: number,
  enqueue: boolean,
  running: string,
): Promise<void> {
  const keys = paymentKeys(fact.reference);
  const mark = keys.delivered(fact.kind);
  const entry: OutboxEntry = { fact, attempts, firstFailedAt: ctx.now() };
  try {
    const previous = await ctx.store.get(keys.outbox(fact.kind));
    if (previous) entry.firstFailedAt = (JSON.parse(previous) as OutboxEntry).firstFailedAt;
    await ctx.store.set(keys.outbox(fact.kind), JSON.stringify(entry), FACT_TTL_MS);
    // Free the fact for the next call, only while this call still holds it.
    await ctx.store.writeAll([{ key: mark, delete: true }], { key: mark, value: running });
    if (enqueue && !previous)
      await enqueueSafely(ctx, { kind: 'outbox', reference: fact.reference, fact: fact.kind });
  } catch (error) {
    ctx.logger.error('store write failed; the fact is retried by this process only', {
      reference: fact.reference,
      fact: fact.kind,
      error,
    });
  }
}

const timerKey = (fact: Fact) => `${fact.reference}\n${fact.kind}`;

/** The delay before retry `attempt` (1, 2, ...): 1 s, 2 s, 4 s ... capped, +-20% jitter. */
export function retryDelayMs(ctx: Context, attempt: number): number {
  const { retryBaseMs, retryCapMs } = ctx.delivery;
  const plain = Math.min(retryCapMs, retryBaseMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(plain * (0.8 + Math.random() * 0.4));
}

/** Calls the hook again later in this process; one timer per fact, never keeping the process alive. */
function scheduleRetry(ctx: Context, fact: Fact, attempt: number): void {
  const { timers } = ctx.delivery;
  const key = timerKey(fact);
  // Past a week of tries at the cap the outbox entry is gone too: stop holding a timer for it.
  if (ctx.delivery.closed || timers.has(key) || attempt * ctx.delivery.retryCapMs > FACT_TTL_MS)
    return;
  const timer = setTimeout(
    () => {
      timers.delete(key);
      if (ctx.delivery.closed) return;
      void deliver(ctx, fact, { attempt, enqueue: false }).then(
        (result) => {
          if (result === 'busy') scheduleRetry(ctx, fact, attempt + 1);
        },
        (error: unknown) =>
          ctx.logger.error('hook retry failed', { reference: fact.reference, error }),
      );
    },
    retryDelayMs(ctx, attempt),
  );
  timer.unref?.();
  timers.set(key, timer);
}

function cancelRetry(ctx: Context, fact: Fact): void {
  const key = timerKey(fact);
  const timer = ctx.delivery.timers.get(key);
  if (timer) {
    clearTimeout(timer);
    ctx.delivery.timers.delete(key);
  }
}

/** Stops this process's retries (the outbox keeps what they were for). */
export function stopRetries(ctx: Context): void {
  ctx.delivery.closed = true;
  for (const timer of ctx.delivery.timers.values()) clearTimeout(timer);
  ctx.delivery.timers.clear();
}
