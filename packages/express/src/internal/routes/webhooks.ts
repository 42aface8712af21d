import express, { type Response, type Router } from 'express';
import type { WebhookEvent } from '../../options.js';
import type { Context } from '../context.js';
import { asyncRoute } from '../guards.js';
import { stateFromLookup } from '../outcomes.js';
import { loadPayment } from '../records.js';
import { verifyWebhook, WebhookVerificationError } from '../webhook-verify.js';
import { settle } from './payments.js';

const DONE_TTL_MS = 4 * 24 * 60 * 60_000; // the gateway retries for up to three days
const LOCK_TTL_MS = 60_000;

function refuse(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ success: false, message, code });
}

/** Moves our own record of a payment along when the gateway notifies its outcome. */
async function applyToRecord(ctx: Context, payload: Record<string, unknown>): Promise<void> {
  const reference = String(payload.paymentReference);
  const record = await loadPayment(ctx, reference);
  if (!record || typeof payload.status !== 'string') return;
  const state = stateFromLookup({
    reference,
    status: payload.status,
    amount: Number(payload.amount),
    currency: String(payload.currency),
  });
  if (state && state.status !== record.state.status && record.state.status !== 'approved')
    await settle(ctx, { ...record, state });
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
      let payload: Record<string, unknown>;
      try {
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        payload = verifyWebhook(
          body,
          ctx.webhookSecret,
          type === 'payment' ? 'paymentReference' : 'payoutId',
        );
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        ctx.logger.warn('webhook refused', { type, reason: error.message });
        refuse(res, 400, 'webhook_invalid', error.message);
        return;
      }
      const id =
        type === 'payment'
          ? `pay:${String(payload.paymentReference)}:${String(payload.status)}:${String(payload.amount)}`
          : `payout:${String(payload.payoutId)}`;
      if (await ctx.store.get(`wh:done:${id}`)) {
        res.json({ success: true, duplicate: true });
        return;
      }
      if (!(await ctx.store.setIfAbsent(`wh:lock:${id}`, '1', LOCK_TTL_MS))) {
        // The same delivery is being handled right now; the gateway retries later.
        refuse(res, 409, 'conflict', 'This webhook is already being processed.');
        return;
      }
      try {
        if (type === 'payment') await applyToRecord(ctx, payload);
        await ctx.options.onWebhook?.({ type, payload } as WebhookEvent);
        // Claimed only after the handler succeeded, so a failure leaves the retry its chance.
        await ctx.store.set(`wh:done:${id}`, '1', DONE_TTL_MS);
      } catch (error) {
        ctx.logger.error('webhook handler failed; the gateway will retry', { type, error });
        refuse(res, 500, 'webhook_handler_failed', 'The webhook could not be processed.');
        return;
      } finally {
        await ctx.store.delete(`wh:lock:${id}`);
      }
      res.json({ success: true });
    });

  router.post('/webhooks/notify', raw, handle('payment'));
  router.post('/webhooks/payout', raw, handle('payout'));
  return router;
}
