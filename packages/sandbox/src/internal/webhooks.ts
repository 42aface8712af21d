import { createHash, randomUUID } from 'node:crypto';
import type { SandboxClock } from './clock.js';
import type { Logger } from './logger.js';
import { formatIsoMillis, formatWebhookDate } from './format.js';
import type { Delivery, Txn } from './types.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Delays before retries 1..20; they add up to just under three days, the spec's other bound. */
export const RETRY_DELAYS_MS: readonly number[] = [
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  4 * HOUR,
  ...Array<number>(10).fill(6 * HOUR),
];
export const RETRY_WINDOW_MS = 3 * 24 * HOUR;
const ATTEMPT_TIMEOUT_MS = 10_000;

export const md5 = (value: string): string => createHash('md5').update(value).digest('hex');

export type NotifyStatus = 'SETTLED' | 'AUTHORIZED' | 'FAILED' | 'NEW' | 'REFUNDED';

/** The payment notification of the spec's Events section; `bin` is the masked card number. */
export function paymentNotification(
  txn: Txn,
  status: NotifyStatus,
  secret: string,
  now: number,
  amount = txn.amount,
): Record<string, unknown> {
  return {
    // A pending (NEW) payment has not succeeded yet; its completion is a separate notification.
    success: status === 'SETTLED' || status === 'AUTHORIZED' || status === 'REFUNDED',
    amount,
    currency: txn.currency,
    paymentReference: txn.reference,
    merchantReference: txn.merchantReference,
    paymentDate: formatWebhookDate(txn.createdAt),
    status,
    date: formatIsoMillis(now),
    hash: md5(txn.reference + secret),
    bin: status === 'NEW' || !txn.card ? '' : txn.card.masked,
  };
}

/** Shares of hostile payment notifications never sent, sent twice, and held back. */
export const HOSTILE = { dropped: 0.15, twice: 0.25, late: 0.3 } as const;
/** A held-back or repeated notification goes out 1 to 120 minutes of sandbox time later. */
const hostileDelay = (random: () => number): number => MINUTE * (1 + Math.floor(random() * 120));

/**
 * Sends webhooks and retries non-2xx answers on the sandbox clock. Hostile (payment notifications
 * only; payouts keep their schedule): each is dropped, sent twice (the copy later), held back, or
 * sent at once, drawn from `random`, so notifications also arrive out of order.
 */
export class WebhookDispatcher {
  readonly recent: Delivery[] = [];

  constructor(
    private readonly clock: SandboxClock,
    private readonly logger: Logger,
    private readonly mode: 'reliable' | 'hostile' = 'reliable',
    private readonly random: () => number = Math.random,
  ) {}

  send(
    event: Delivery['event'],
    url: string,
    payload: Record<string, unknown>,
    owner?: Txn,
  ): Delivery {
    const now = this.clock.now();
    if (this.mode === 'reliable' || event !== 'payment')
      return this.enqueue(event, url, payload, owner, now);
    const roll = this.random();
    if (roll < HOSTILE.dropped) {
      const dropped = this.record(event, url, payload, owner, now);
      dropped.state = 'dropped';
      dropped.hostile = 'dropped';
      dropped.nextAttemptAt = undefined;
      return dropped;
    }
    if (roll < HOSTILE.dropped + HOSTILE.twice) {
      const first = this.enqueue(event, url, payload, owner, now);
      this.enqueue(event, url, payload, owner, now + hostileDelay(this.random)).hostile = 'copy';
      return first;
    }
    if (roll < HOSTILE.dropped + HOSTILE.twice + HOSTILE.late) {
      const late = this.enqueue(event, url, payload, owner, now + hostileDelay(this.random));
      late.hostile = 'late';
      return late;
    }
    return this.enqueue(event, url, payload, owner, now);
  }

  private record(
    event: Delivery['event'],
    url: string,
    payload: Record<string, unknown>,
    owner: Txn | undefined,
    at: number,
  ): Delivery {
    const delivery: Delivery = {
      id: randomUUID(),
      event,
      url,
      payload,
      state: 'pending',
      firstAttemptAt: at,
      nextAttemptAt: at,
      attempts: [],
    };
    if (owner) (owner.webhooks ??= []).push(delivery);
    this.recent.push(delivery);
    // Only the latest deliveries are kept for the dashboard; the owner keeps its own.
    if (this.recent.length > 500) this.recent.shift();
    return delivery;
  }

  private enqueue(
    event: Delivery['event'],
    url: string,
    payload: Record<string, unknown>,
    owner: Txn | undefined,
    at: number,
  ): Delivery {
    const delivery = this.record(event, url, payload, owner, at);
    this.clock.schedule(at, () => this.attempt(delivery));
    return delivery;
  }

  private async attempt(delivery: Delivery): Promise<void> {
    // Sandbox time of the attempt is when it was due, so a clock jump replays the whole schedule.
    const at = Math.min(delivery.nextAttemptAt ?? this.clock.now(), this.clock.now());
    const started = Date.now();
    try {
      const res = await fetch(delivery.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'pg-sandbox-webhooks' },
        body: JSON.stringify(delivery.payload),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      delivery.attempts.push({ at, status: res.status, durationMs: Date.now() - started });
      if (res.status >= 200 && res.status < 300) {
        delivery.state = 'delivered';
        delivery.nextAttemptAt = undefined;
        return;
      }
    } catch (err) {
      const message =
        err instanceof Error
          ? err.cause instanceof Error
            ? err.cause.message
            : err.message
          : 'error';
      delivery.attempts.push({ at, error: message, durationMs: Date.now() - started });
    }
    this.retryLater(delivery);
  }

  private retryLater(delivery: Delivery): void {
    const retries = delivery.attempts.length - 1;
    const delay = RETRY_DELAYS_MS[retries];
    const next =
      delay === undefined ? undefined : delivery.attempts[delivery.attempts.length - 1]!.at + delay;
    if (next === undefined || next > delivery.firstAttemptAt + RETRY_WINDOW_MS) {
      delivery.state = 'failed';
      delivery.nextAttemptAt = undefined;
      this.logger.warn(
        `webhook to ${delivery.url} failed after ${delivery.attempts.length} attempts`,
      );
      return;
    }
    delivery.nextAttemptAt = next;
    this.clock.schedule(next, () => this.attempt(delivery));
  }
}
