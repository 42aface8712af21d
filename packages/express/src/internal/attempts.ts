import { randomBytes } from 'node:crypto';
import { CheckoutError } from '../errors.js';
import type { PaymentState } from '../payment-state.js';
import type { Context } from './context.js';
import { classifyGatewayError } from './gateway-errors.js';
import { stateFromLookup } from './outcomes.js';

/** An attempt whose create call ended without an answer: it may or may not have been charged. */
export interface OpenAttempt {
  merchantReference: string;
  pageOrigin: string;
  session: string;
  shopperId?: string;
  /** When its create was sent (ms since the epoch); absent in records of older versions. */
  openedAt?: number;
}

/** Order reference plus a random suffix, so a retry after a decline is a new gateway transaction (max 99). */
export function attemptReference(orderReference: string): string {
  return `${orderReference.slice(0, 88)}-${randomBytes(6).toString('base64url').replace(/[-_]/g, 'x')}`;
}

export const newSession = (): string => randomBytes(24).toString('base64url');

const openKey = (order: string) => `open:${order}`;
const lockKey = (order: string) => `lock:${order}`;
const paidKey = (order: string) => `paid:${order}`;

/** Serializes payment creation per order, so a double click cannot charge twice. */
export async function withOrderLock<T>(
  ctx: Context,
  order: string,
  work: () => Promise<T>,
): Promise<T> {
  if (!(await ctx.store.setIfAbsent(lockKey(order), '1', 5 * 60_000))) {
    throw new CheckoutError(409, 'conflict', 'A payment for this order is already in progress.');
  }
  try {
    return await work();
  } finally {
    await ctx.store.delete(lockKey(order));
  }
}

export async function openAttempts(ctx: Context, order: string): Promise<OpenAttempt[]> {
  const raw = await ctx.store.get(openKey(order));
  return raw ? (JSON.parse(raw) as OpenAttempt[]) : [];
}

export async function setOpenAttempts(
  ctx: Context,
  order: string,
  attempts: OpenAttempt[],
): Promise<void> {
  if (attempts.length === 0) await ctx.store.delete(openKey(order));
  else await ctx.store.set(openKey(order), JSON.stringify(attempts), ctx.recordTtlMs);
}

/**
 * Records an attempt before its gateway call. `known` is the order's open list when the caller
 * holds the order lock and has just read it (saves a store round trip).
 */
export async function openAttempt(
  ctx: Context,
  order: string,
  attempt: OpenAttempt,
  known?: OpenAttempt[],
): Promise<void> {
  await setOpenAttempts(ctx, order, [...(known ?? (await openAttempts(ctx, order))), attempt]);
}

/** Forgets an attempt once its outcome is known; `known` as for {@link openAttempt}. */
export async function closeAttempt(
  ctx: Context,
  order: string,
  merchantReference: string,
  known?: OpenAttempt[],
): Promise<void> {
  const open = known ?? (await openAttempts(ctx, order));
  await setOpenAttempts(
    ctx,
    order,
    open.filter((a) => a.merchantReference !== merchantReference),
  );
}

export async function paidReference(ctx: Context, order: string): Promise<string | undefined> {
  return ctx.store.get(paidKey(order));
}

export async function markPaid(ctx: Context, order: string, reference: string): Promise<void> {
  await ctx.store.set(paidKey(order), reference, ctx.recordTtlMs);
}

/**
 * Asks the gateway what became of an attempt: a state when it exists, `null` when it was never
 * created (safe to retry), `undefined` when the gateway cannot tell us yet. "Not found" within
 * `reconcileGraceMs` of the create is `undefined`: the gateway may still be processing it.
 */
export async function reconcileAttempt(
  ctx: Context,
  attempt: Pick<OpenAttempt, 'merchantReference' | 'openedAt'>,
): Promise<PaymentState | null | undefined> {
  const { merchantReference } = attempt;
  try {
    const result = await (await ctx.gateway()).reconcile(merchantReference);
    if (!result.found) {
      if (Date.now() - (attempt.openedAt ?? 0) < ctx.reconcileGraceMs) {
        ctx.logger.info('payment not found yet; waiting before treating it as never created', {
          merchantReference,
        });
        return undefined;
      }
      return null;
    }
    // A payment stuck before 3-D Secure lost its challenge data with the timeout; it will expire uncharged.
    return (
      stateFromLookup(result.record) ?? {
        success: false,
        status: 'failed',
        reference: result.record.reference,
        message: 'The payment could not be completed and was not charged. Please try again.',
        code: 'gateway_timeout',
      }
    );
  } catch (error) {
    if (classifyGatewayError(error).kind === 'not_gateway') throw error;
    ctx.logger.warn('reconcile failed; outcome still unknown', { merchantReference, error });
    return undefined;
  }
}
