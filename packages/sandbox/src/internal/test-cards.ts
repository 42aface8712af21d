import { cardBrandOf, type CardType } from '@pg-checkout/protocol/vocabulary';

export type { CardType };

/** What a card does on payment create; the sandbox's whole "issuer" logic. */
export type Behaviour =
  | 'approve'
  | 'decline'
  | 'insufficient-funds'
  | 'v1'
  | 'v2-method-challenge'
  | 'v2-method-frictionless'
  | 'v2-challenge'
  | 'v2-method-auth-fails'
  | 'v2-challenge-then-decline';

export interface TestCard {
  number: string;
  type: CardType;
  behaviour: Behaviour;
  description: string;
}

/** The test-card table of DESIGN.md ("Contracts that tests rely on"), exactly. */
export const TEST_CARDS: readonly TestCard[] = [
  {
    number: '4111111111111111',
    type: 'visa',
    behaviour: 'approve',
    description: 'approved, no 3-D Secure',
  },
  {
    number: '4550270020557018',
    type: 'visa',
    behaviour: 'approve',
    description: 'approved, no 3-D Secure',
  },
  {
    number: '5555555555554444',
    type: 'mastercard',
    behaviour: 'approve',
    description: 'approved, no 3-D Secure',
  },
  {
    number: '5471209024048015',
    type: 'mastercard',
    behaviour: 'approve',
    description: 'approved, no 3-D Secure',
  },
  {
    number: '2223003122003222',
    type: 'mastercard',
    behaviour: 'approve',
    description: 'approved, no 3-D Secure',
  },
  {
    number: '378282246310005',
    type: 'amex',
    behaviour: 'approve',
    description: 'approved, no 3-D Secure (4-digit cvv)',
  },
  {
    number: '30569309025904',
    type: 'diners',
    behaviour: 'approve',
    description: 'approved, no 3-D Secure',
  },
  {
    number: '4000000000000002',
    type: 'visa',
    behaviour: 'decline',
    description: 'declined: code -1, fin005',
  },
  {
    number: '4000000000009995',
    type: 'visa',
    behaviour: 'insufficient-funds',
    description: 'declined, insufficient funds: code -1, fin051',
  },
  { number: '4000000000003097', type: 'visa', behaviour: 'v1', description: '3-D Secure v1' },
  {
    number: '4260890000160011',
    type: 'visa',
    behaviour: 'v2-method-challenge',
    description: 'v2 method step, then challenge (v1 when supports3dsV2 is not true)',
  },
  {
    number: '5286250003061012',
    type: 'mastercard',
    behaviour: 'v2-method-challenge',
    description: 'v2 method step, then challenge (v1 when supports3dsV2 is not true)',
  },
  {
    number: '4000000000003220',
    type: 'visa',
    behaviour: 'v2-method-frictionless',
    description:
      'v2 method step, then frictionless at Step 2 confirm if the method form arrived first, else challenge',
  },
  {
    number: '4000000000003063',
    type: 'visa',
    behaviour: 'v2-method-challenge',
    description: 'v2 method step, then challenge',
  },
  {
    number: '4000000000003055',
    type: 'visa',
    behaviour: 'v2-challenge',
    description: 'v2 challenge at once (Step 3 shape in the create response)',
  },
  {
    number: '4000000000000127',
    type: 'visa',
    behaviour: 'v2-method-auth-fails',
    description: 'v2 method step, then authentication fails at Step 2 confirm (code 3, fin006)',
  },
  {
    number: '4000000000000119',
    type: 'visa',
    behaviour: 'v2-challenge-then-decline',
    description:
      'v2 challenge at once; it passes, then authorization is declined at confirm (code -1, fin005)',
  },
];

const BY_NUMBER = new Map(TEST_CARDS.map((c) => [c.number, c]));

export function luhnValid(pan: string): boolean {
  let sum = 0;
  for (let i = 0; i < pan.length; i++) {
    let d = pan.charCodeAt(pan.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Brand by number prefix; undefined for brands the gateway does not take. */
export const brandOf = (pan: string): CardType | undefined => cardBrandOf(pan);

export function behaviourOf(pan: string): Behaviour {
  return BY_NUMBER.get(pan)?.behaviour ?? 'approve';
}
