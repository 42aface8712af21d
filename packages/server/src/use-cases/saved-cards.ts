import { CheckoutError } from '../errors.js';
import type { CardInput } from '../gateway/port.js';
import type { Caller } from '../setup/caller.js';
import type { Context } from '../setup/context.js';
import { enforceLimits } from '../limits/limits.js';
import type { SavedCard } from '../order/records.js';
import { addCard, listCards, registerCard, removeCard } from '../cards/saved-cards.js';

/** Saved cards are only for a shopper the merchant identified (`savedCards.shopperId`). */
async function requireShopper(caller: Caller, ctx: Context): Promise<string> {
  if (!ctx.options.savedCards)
    throw new CheckoutError('method_not_enabled', 'Saved cards are not offered here.');
  const shopperId = await caller.shopperId();
  if (!shopperId) throw new CheckoutError('not_signed_in', 'Please sign in to use saved cards.');
  return shopperId;
}

/** `GET {mount}/cards`: the signed-in shopper's saved cards (masked). */
export async function savedCards(caller: Caller, ctx: Context): Promise<SavedCard[]> {
  return listCards(ctx, await requireShopper(caller, ctx));
}

/** `POST {mount}/cards`: vaults a card for the signed-in shopper. */
export async function saveCard(card: CardInput, caller: Caller, ctx: Context): Promise<SavedCard> {
  const shopperId = await requireShopper(caller, ctx);
  await enforceLimits(ctx, caller, 'cards', shopperId);
  const saved = await registerCard(ctx, caller, shopperId, card);
  if (!saved) throw new CheckoutError('forbidden', 'Saving cards is not allowed for this account.');
  await addCard(ctx, shopperId, saved);
  return saved;
}

/** `DELETE {mount}/cards/:token`: takes a card off the shopper's list (and the vault, when nobody else holds it). */
export async function deleteCard(token: string, caller: Caller, ctx: Context): Promise<void> {
  const shopperId = await requireShopper(caller, ctx);
  await enforceLimits(ctx, caller, 'cards', shopperId);
  const { removed, unregister } = await removeCard(ctx, shopperId, token);
  if (!removed) throw new CheckoutError('not_found', 'This saved card was not found.');
  if (!unregister) return;
  try {
    await (await ctx.gateway()).cards.unregister(token);
  } catch (error) {
    ctx.logger.warn('card removed here but the vault did not confirm', { error });
  }
}
