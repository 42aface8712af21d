import {
  CancelSubscriptionRequestLenientSchema,
  EditSubscriptionRequestLenientSchema,
  LookupCardRequestLenientSchema,
  RegisterCardRequestLenientSchema,
  UnregisterCardRequestLenientSchema,
} from '@pg-checkout/protocol';
import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import { readCardInput, readRawCard } from '../card-input.js';
import type { Ctx } from '../context.js';
import { ApiError, badRequest, conflict, notFound } from '../errors.js';
import { bodyReader } from '../request.js';
import type { CardRecord } from '../types.js';

function cardView(card: CardRecord): Record<string, unknown> {
  return {
    number: card.masked,
    cardHolder: card.cardHolder,
    expiryYear: card.expiryYear,
    expiryMonth: card.expiryMonth,
    type: card.type,
    token: card.token ?? null,
  };
}

/** Card vault and subscriptions: both keep a card for later, by token or by subscription. */
export function vaultRoutes(ctx: Ctx): Router {
  const router = Router();

  router.post('/pg/api/v2/card/register', (req, res) => {
    const { card, decline } = readRawCard(
      ctx,
      bodyReader(req, RegisterCardRequestLenientSchema).reqObj('creditCard'),
    );
    if (decline) {
      throw new ApiError(400, `The card cannot be stored: ${decline.message}`, -1, {
        originalErrorCode: decline.originalErrorCode,
      });
    }
    if (!card.token) {
      card.token = randomBytes(16).toString('hex');
      ctx.store.tokens.set(card.token, card);
    }
    res.json({ success: true, token: card.token });
  });

  router.post('/pg/api/v2/card/lookup', (req, res) => {
    const r = bodyReader(req, LookupCardRequestLenientSchema);
    const given = ['cardNumber', 'token', 'transactionReference'].filter((k) => r.has(k));
    if (given.length !== 1)
      throw badRequest('Give exactly one of cardNumber, token or transactionReference');
    let card: CardRecord | undefined;
    if (r.has('cardNumber')) {
      const pan = r.reqStr('cardNumber', {
        pattern: /^\d{12,19}$/,
        hint: 'a card number is 12 to 19 digits',
      });
      card = ctx.store.cardByPan(pan);
      if (!card?.token) throw notFound('No stored card with this number');
    } else if (r.has('token')) {
      const token = r.reqStr('token', { max: 100 });
      card = ctx.store.tokens.get(token);
      if (!card) throw notFound(`No stored card with token ${token}`);
    } else {
      const ref = r.reqStr('transactionReference', { max: 100 });
      card = ctx.store.require(ref).card;
      if (!card) throw notFound(`Transaction ${ref} was not paid with a card`);
    }
    res.json({ success: true, card: cardView(card) });
  });

  router.post('/pg/api/v2/card/unregister', (req, res) => {
    const token = bodyReader(req, UnregisterCardRequestLenientSchema).reqStr('token', { max: 100 });
    const card = ctx.store.tokens.get(token);
    if (!card) throw notFound(`No stored card with token ${token}`);
    ctx.store.tokens.delete(token);
    card.token = undefined;
    res.json({ success: true });
  });

  router.post('/pg/api/v2/subscription/edit', (req, res) => {
    const r = bodyReader(req, EditSubscriptionRequestLenientSchema);
    const ref = r.reqStr('subscriptionReference', { max: 99 });
    const sub = ctx.store.subscriptions.get(ref);
    if (!sub) throw notFound(`No subscription with reference ${ref}`);
    if (sub.status !== 'ACTIVE')
      throw conflict(`Subscription ${ref} is ${sub.status} and cannot be edited`);
    const input = readCardInput(ctx, r.reqObj('creditCard'));
    if (input.decline) {
      throw new ApiError(400, `The new card cannot be used: ${input.decline.message}`, -1, {
        originalErrorCode: input.decline.originalErrorCode,
      });
    }
    sub.card = input.card;
    res.json({ success: true, message: 'Subscription card updated' });
  });

  router.post('/pg/api/v2/subscription/cancel', (req, res) => {
    const ref = bodyReader(req, CancelSubscriptionRequestLenientSchema).reqStr(
      'subscriptionReference',
      { max: 99 },
    );
    const sub = ctx.store.subscriptions.get(ref);
    if (!sub) throw notFound(`No subscription with reference ${ref}`);
    if (sub.status === 'CANCELLED') throw conflict(`Subscription ${ref} is already cancelled`);
    sub.status = 'CANCELLED';
    res.json({ success: true, message: 'Subscription cancelled' });
  });

  return router;
}
