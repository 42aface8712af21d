/** The test cards of DESIGN.md that finish without a browser, and what each must end as. */
import { cardBody } from '@pg-checkout/test-helpers/cards';

export type Expect = 'approved' | 'declined' | 'authenticating';

export interface SoakCard {
  number: string;
  type: 'visa' | 'mastercard' | 'amex' | 'diners';
  expect: Expect;
}

const card = (number: string, type: SoakCard['type'], expect: Expect): SoakCard => ({
  number,
  type,
  expect,
});

export const SOAK_CARDS: readonly SoakCard[] = [
  card('4111111111111111', 'visa', 'approved'),
  card('4550270020557018', 'visa', 'approved'),
  card('5555555555554444', 'mastercard', 'approved'),
  card('5471209024048015', 'mastercard', 'approved'),
  card('2223003122003222', 'mastercard', 'approved'),
  card('378282246310005', 'amex', 'approved'),
  card('30569309025904', 'diners', 'approved'),
  card('4000000000000002', 'visa', 'declined'),
  card('4000000000009995', 'visa', 'declined'),
  // 3-D Secure cards: only the create step runs here; they stay pending authentication.
  card('4000000000003097', 'visa', 'authenticating'),
  card('4260890000160011', 'visa', 'authenticating'),
  card('5286250003061012', 'mastercard', 'authenticating'),
  card('4000000000003220', 'visa', 'authenticating'),
  card('4000000000003063', 'visa', 'authenticating'),
  card('4000000000003055', 'visa', 'authenticating'),
  card('4000000000000127', 'visa', 'authenticating'),
  card('4000000000000119', 'visa', 'authenticating'),
];

/** The browser's body for one card, as `<pg-card-form>` would post it. */
export function paymentBody(c: SoakCard): string {
  return JSON.stringify(cardBody(c.number, { type: c.type }));
}
