import { TEST_CARDS, type CardType } from './internal/test-cards.js';

export interface PublicTestCard {
  number: string;
  brand: CardType;
  /** What the card does on payment create, in words (DESIGN.md's test-card table). */
  behaviour: string;
  /** One card per distinct flow, the short list a CLI or demo prints. */
  featured: boolean;
}

const FEATURED = new Set([
  '4111111111111111',
  '4000000000000002',
  '4000000000003097',
  '4000000000003063',
  '4000000000003220',
  '4000000000003055',
]);

/** The sandbox's test cards, for help pages and CLIs. */
export const testCards: readonly PublicTestCard[] = TEST_CARDS.map((c) => ({
  number: c.number,
  brand: c.type,
  behaviour: c.description,
  featured: FEATURED.has(c.number),
}));
