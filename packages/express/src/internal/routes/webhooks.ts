import express, { type Response, type Router } from 'express';
import {
  verifyPaymentNotification,
  verifyPayoutWebhook,
  WebhookVerificationError,
} from '@pg-checkout/node';
import type { WebhookEvent } from '../../options.js';
import type { Context } from '../context.js';
import { asyncRoute, sendJson } from '../guards.js';
import { isFinal, loadPayment } from '../records.js';
import { lookupState, settle } from '../settle.js';

const DONE_TTL_MS = 4 * 24 * 60 * 60_000; // the gateway retries for up to three days
const LOCK_TTL_MS = 60_000;

function refuse(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ success: false, message, code });
}

/**
 * Moves our own record of a payment along when the gateway notifies it. The hash covers only the
 * reference, so the state comes from a gateway lookup, never from the payload's status.
 */
async function applyToRecord(ctx: Context, reference: string): Promise<void> {
  const record = await loadPayment(ctx, reference);
  if (!record || isFinal(record.state)) return;
  const state = await lookupState(ctx, reference, record.method);
  if (state && state.status !== record.state.status) await settle(ctx, { ...record, state });
}

function verify(type: WebhookEvent['type'], body: Buffer, secret: string): WebhookEvent {
  return type === 'payment'
    ? { type, payload: verifyPaymentNotification(body, secret) }
    : { type, payload: verifyPayoutWebhook(body, secret) };
}

/** Gateway -> merchant: verified on the raw body, de-duplicated, handed to the merchant once. */
export function webhookRoutes(ctx: Context): Router {
  const router = express.Router();
  const raw = express.raw({ type: () => true, limit: '256kb' });

  const handle = (type: WebhookEvent['type']) =>
    asyncRoute(async (req, res) => {
      if (!ctx.webhookSecret) {
        ctx.logger.error('webhook received but no webhookSecret is configured');
        refuse(res, 503, 'webhook_not_configured', 'Webhooks are not configured.');
        return;
      }
      let event: WebhookEvent;
      try {
        event = verify(
          type,
          Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
          ctx.webhookSecret,
        );
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        ctx.logger.warn('webhook refused', { type, reason: error.reason });
        refuse(res, error.statusCode, 'webhook_invalid', error.message);
        return;
      }
      const id =
        event.type === 'payment'
          ? `pay:${event.payload.paymentReference}:${event.payload.status}:${String(event.payload.amount)}`
          : `payout:${String(event.payload.payoutId)}`;
      if (await ctx.store.get(`wh:done:${id}`)) {
        sendJson(res, 200, { success: true, duplicate: true });
        return;
      }
      if (!(await ctx.store.setIfAbsent(`wh:lock:${id}`, '1', LOCK_TTL_MS))) {
        // The same delivery is being handled right now; the gateway retries later.
        refuse(res, 409, 'conflict', 'This webhook is already being processed.');
        return;
      }
      try {
        if (event.type === 'payment') await applyToRecord(ctx, event.payload.paymentReference);
        await ctx.options.onWebhook?.(event);
        // Claimed only after the handler succeeded, so a failure leaves the retry its chance.
        await ctx.store.set(`wh:done:${id}`, '1', DONE_TTL_MS);
      } catch (error) {
        ctx.logger.error('webhook handler failed; the gateway will retry', { type, error });
        refuse(res, 500, 'webhook_handler_failed', 'The webhook could not be processed.');
        return;
      } finally {
        await ctx.store.delete(`wh:lock:${id}`);
      }
      sendJson(res, 200, { success: true });
    });

  router.post('/webhooks/notify', raw, handle('payment'));
  router.post('/webhooks/payout', raw, handle('payout'));
  return router;
}
