import type { Request } from 'express';
import type { SandboxChoices, SandboxProfile } from './choices.js';
import type { SandboxClock } from './clock.js';
import type { Logger } from './logger.js';
import type { Store } from './store.js';
import type { Settings, Txn } from './types.js';
import { paymentNotification, type NotifyStatus, type WebhookDispatcher } from './webhooks.js';

/** Everything a route needs, built once per sandbox. */
export interface Ctx {
  token: string;
  secret: string;
  store: Store;
  clock: SandboxClock;
  webhooks: WebhookDispatcher;
  settings: Settings;
  /** What the sandbox answers where the spec says "not shown" (its profile, with overrides). */
  choices: Readonly<SandboxChoices>;
  /** The profile the choices started from (single choices may override it). */
  profile: SandboxProfile;
  logger: Logger;
  publicUrl?: string | undefined;
  /** Key that signs the sandbox's own cres/PaRes values so they cannot be forged or swapped. */
  acsKey: Buffer;
}

/** Base URL for links the browser follows: publicUrl, else the origin the caller used to reach us. */
export function baseUrl(ctx: Ctx, req: Request): string {
  if (ctx.publicUrl) return ctx.publicUrl.replace(/\/+$/, '');
  return `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
}

/**
 * Sends the payment notification when the payment has a notify URL and the merchant settings
 * ask for this kind of event (success always; failed, pending and refunds by setting).
 */
export function notify(
  ctx: Ctx,
  txn: Txn,
  status: NotifyStatus,
  opts: { amount?: number; force?: boolean; refund?: Txn } = {},
): void {
  const url = txn.hosted?.urls.notify;
  if (!url) return;
  const wanted =
    opts.force ||
    status === 'SETTLED' ||
    status === 'AUTHORIZED' ||
    (status === 'FAILED' && ctx.settings.notifyFailed) ||
    (status === 'NEW' && ctx.settings.notifyPending) ||
    (status === 'REFUNDED' && ctx.settings.notifyRefunds);
  if (!wanted) return;
  // A refund's notification names the payment, or (strict) the refund itself: the spec does not say which.
  const about = opts.refund && ctx.choices.refundNotification === 'refund' ? opts.refund : txn;
  const payload = paymentNotification(about, status, ctx.secret, ctx.clock.now(), opts.amount);
  ctx.webhooks.send('payment', url, payload, txn);
}
