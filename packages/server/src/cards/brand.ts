import { cardBrandOf, type CardType } from '@pg-checkout/protocol/vocabulary';

/**
 * The brand of a card number by its leading digits, for a card posted by a form with no script (the
 * drop-in sends the brand it detected), from the brands' one table (`@pg-checkout/protocol/vocabulary`).
 */
export const brandOf = (digits: string): CardType | undefined => cardBrandOf(digits);
