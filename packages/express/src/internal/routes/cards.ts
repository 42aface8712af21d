import express, { type Request, type Router } from 'express';
import { CheckoutError } from '../../errors.js';
import type { Context } from '../context.js';
import { asyncRoute, originGuard, sendJson } from '../guards.js';
import { AddCardBody, parseBody } from '../schemas.js';
import { jsonBody } from '../json-body.js';
import { addCard, listCards, registerCard, removeCard, shopperOf } from '../saved-cards.js';

async function requireShopper(ctx: Context, req: Request): Promise<string> {
  if (!ctx.options.savedCards)
    throw new CheckoutError(404, 'method_not_enabled', 'Saved cards are not offered here.');
  const shopperId = await shopperOf(ctx, req);
  if (!shopperId)
    throw new CheckoutError(401, 'not_signed_in', 'Please sign in to use saved cards.');
  return shopperId;
}

/** List, add and remove the signed-in shopper's vaulted cards. */
export function cardRoutes(ctx: Context): Router {
  const router = express.Router();
  const guard = originGuard(ctx);
  const json = jsonBody(ctx.bodyLimitBytes);

  router.get(
    '/cards',
    asyncRoute(async (req, res) => {
      const shopperId = await requireShopper(ctx, req);
      sendJson(res, 200, { success: true, cards: await listCards(ctx, shopperId) });
    }),
  );
  router.post(
    '/cards',
    guard,
    json,
    asyncRoute(async (req, res) => {
      const shopperId = await requireShopper(ctx, req);
      const { card } = parseBody(AddCardBody, req.body);
      const saved = await registerCard(ctx, req, shopperId, card);
      if (!saved)
        throw new CheckoutError(403, 'forbidden', 'Saving cards is not allowed for this account.');
      await addCard(ctx, shopperId, saved);
      res.status(201).json({ success: true, card: saved });
    }),
  );
  router.delete(
    '/cards/:token',
    guard,
    asyncRoute(async (req, res) => {
      const shopperId = await requireShopper(ctx, req);
      const token = String(req.params.token);
      const { removed, unregister } = await removeCard(ctx, shopperId, token);
      if (!removed) throw new CheckoutError(404, 'not_found', 'This saved card was not found.');
      if (unregister) {
        try {
          await (await ctx.gateway()).cards.unregister(token);
        } catch (error) {
          ctx.logger.warn('card removed here but the vault did not confirm', { error });
        }
      }
      sendJson(res, 200, { success: true });
    }),
  );
  return router;
}
