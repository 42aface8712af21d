import type { Request } from 'express';
import { CheckoutError } from '../errors.js';
import type { CardInput } from '../gateway.js';
import type { Context } from './context.js';
import { maskPan } from './mask.js';
import type { PaymentRecord, SavedCard } from './records.js';

// Saved-card lists outlive sessions; the merchant's store decides real durability (Redis persistence).
const CARDS_TTL_MS = 400 * 24 * 60 * 60_000;
const cardsKey = (shopperId: string) => `cards:${shopperId}`;

/** Who the shopper is, per the merchant's hook; `undefined` without saved cards or sign-in. */
export async function shopperOf(ctx: Context, req: Request): Promise<string | undefined> {
  const hooks = ctx.options.savedCards;
  if (!hooks) return undefined;
  const id = await hooks.shopperId(req);
  return typeof id === 'string' && id.length > 0 && id.length <= 200 ? id : undefined;
}

export async function listCards(ctx: Context, shopperId: string): Promise<SavedCard[]> {
  const raw = await ctx.store.get(cardsKey(shopperId));
  return raw ? (JSON.parse(raw) as SavedCard[]) : [];
}

async function writeCards(ctx: Context, shopperId: string, cards: SavedCard[]): Promise<void> {
  if (cards.length === 0) await ctx.store.delete(cardsKey(shopperId));
  else await ctx.store.set(cardsKey(shopperId), JSON.stringify(cards), CARDS_TTL_MS);
}

export async function addCard(ctx: Context, shopperId: string, card: SavedCard): Promise<void> {
  const cards = (await listCards(ctx, shopperId)).filter((c) => c.token !== card.token);
  await writeCards(ctx, shopperId, [...cards, card].slice(-20));
}

export async function removeCard(ctx: Context, shopperId: string, token: string): Promise<boolean> {
  const cards = await listCards(ctx, shopperId);
  const kept = cards.filter((c) => c.token !== token);
  if (kept.length === cards.length) return false;
  await writeCards(ctx, shopperId, kept);
  return true;
}

/** A token the browser sent must be one of this shopper's saved cards. */
export async function findSavedCard(
  ctx: Context,
  shopperId: string | undefined,
  token: string,
): Promise<SavedCard> {
  const card = shopperId
    ? (await listCards(ctx, shopperId)).find((c) => c.token === token)
    : undefined;
  if (!card)
    throw new CheckoutError(
      404,
      'not_found',
      'This saved card was not found. Please enter your card details.',
    );
  return card;
}

/** Vaults a card when the merchant lets this shopper save one; `undefined` otherwise. */
export async function registerCard(
  ctx: Context,
  req: Request,
  shopperId: string | undefined,
  card: CardInput,
): Promise<SavedCard | undefined> {
  const hooks = ctx.options.savedCards;
  if (!hooks || !shopperId) return undefined;
  if (hooks.maySaveCard && !(await hooks.maySaveCard(req))) return undefined;
  const { token } = await (await ctx.gateway()).cards.register(card);
  return {
    token,
    number: maskPan(card.number),
    type: card.type,
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    cardHolder: card.cardHolder,
  };
}

/** Keeps a card vaulted with an approved payment for its shopper; drops it after a refusal. */
export async function settleSavedCard(ctx: Context, record: PaymentRecord): Promise<void> {
  const card = record.pendingCard;
  if (!card || !record.shopperId) return;
  if (record.state.status === 'approved') {
    await addCard(ctx, record.shopperId, card);
  } else if (record.state.status === 'declined' || record.state.status === 'failed') {
    try {
      await (await ctx.gateway()).cards.unregister(card.token);
    } catch (error) {
      ctx.logger.warn('could not unregister the card of a refused payment', {
        reference: record.reference,
        error,
      });
    }
  }
}
