import { CheckoutError } from '../errors.js';
import type { CardInput } from '../gateway/port.js';
import type { Caller } from '../setup/caller.js';
import type { Context } from '../setup/context.js';
import { cardKeys } from '../stores/keys.js';
import { maskPan } from './mask.js';
import type { PaymentRecord, SavedCard } from '../order/records.js';

// Saved-card lists outlive sessions; the merchant's store decides real durability (Redis persistence).
const CARDS_TTL_MS = 400 * 24 * 60 * 60_000;
const cardsKey = cardKeys.shopper;
/** Most saved cards one shopper keeps; a new one pushes the oldest out. */
export const MAX_CARDS = 20;

export async function listCards(ctx: Context, shopperId: string): Promise<SavedCard[]> {
  const raw = await ctx.store.get(cardsKey(shopperId));
  return raw ? (JSON.parse(raw) as SavedCard[]) : [];
}

async function writeCards(ctx: Context, shopperId: string, cards: SavedCard[]): Promise<void> {
  if (cards.length === 0) await ctx.store.delete(cardsKey(shopperId));
  else await ctx.store.set(cardsKey(shopperId), JSON.stringify(cards), CARDS_TTL_MS);
}

/**
 * The vault may hand every shopper who saves the same card the same token (its lookup is by card
 * number), so who holds a token is kept beside it: the vault entry is removed only when nobody does.
 */
async function holdersOf(ctx: Context, token: string): Promise<string[] | undefined> {
  const raw = await ctx.store.get(cardKeys.holders(token));
  return raw ? (JSON.parse(raw) as string[]) : undefined;
}

async function writeHolders(ctx: Context, token: string, holders: string[]): Promise<void> {
  await ctx.store.set(cardKeys.holders(token), JSON.stringify(holders), CARDS_TTL_MS);
}

export async function addCard(ctx: Context, shopperId: string, card: SavedCard): Promise<void> {
  const cards = (await listCards(ctx, shopperId)).filter((c) => c.token !== card.token);
  await writeCards(ctx, shopperId, [...cards, card].slice(-MAX_CARDS));
  const holders = (await holdersOf(ctx, card.token)) ?? [];
  if (!holders.includes(shopperId)) await writeHolders(ctx, card.token, [...holders, shopperId]);
}

/**
 * Takes a card off this shopper's list. `unregister` is true only when the middleware knows that
 * no other shopper holds the token (a holders record that is now empty).
 */
export async function removeCard(
  ctx: Context,
  shopperId: string,
  token: string,
): Promise<{ removed: boolean; unregister: boolean }> {
  const cards = await listCards(ctx, shopperId);
  const kept = cards.filter((c) => c.token !== token);
  if (kept.length === cards.length) return { removed: false, unregister: false };
  await writeCards(ctx, shopperId, kept);
  const holders = await holdersOf(ctx, token);
  if (!holders) return { removed: true, unregister: false };
  const others = holders.filter((h) => h !== shopperId);
  if (others.length > 0) await writeHolders(ctx, token, others);
  else await ctx.store.delete(cardKeys.holders(token));
  return { removed: true, unregister: others.length === 0 };
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
      'not_found',
      'This saved card was not found. Please enter your card details.',
    );
  return card;
}

/** Vaults a card when the merchant lets this shopper save one; `undefined` otherwise. */
export async function registerCard(
  ctx: Context,
  caller: Caller,
  shopperId: string | undefined,
  card: CardInput,
): Promise<SavedCard | undefined> {
  if (!ctx.options.savedCards || !shopperId) return undefined;
  if (!(await caller.maySaveCard())) return undefined;
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
export async function resolveSavedCard(ctx: Context, record: PaymentRecord): Promise<void> {
  const card = record.pendingCard;
  if (!card || !record.shopperId) return;
  if (record.state.status === 'approved') {
    try {
      await addCard(ctx, record.shopperId, card);
    } catch (error) {
      ctx.logger.error('could not keep the saved card of an approved payment', {
        reference: record.reference,
        error,
      });
    }
  } else if (record.state.status === 'declined' || record.state.status === 'failed') {
    try {
      const holders = await holdersOf(ctx, card.token);
      // Another shopper saved the same card and got the same token: it stays in the vault.
      if (holders && holders.length > 0) return;
      await (await ctx.gateway()).cards.unregister(card.token);
    } catch (error) {
      ctx.logger.warn('could not unregister the card of a refused payment', {
        reference: record.reference,
        error,
      });
    }
  }
}
