/** Three years on: a test card never expires under a test, whatever year it runs in. */
export const EXPIRY_YEAR = new Date().getUTCFullYear() + 3;

/** The brand the card form derives from a test card's number (the sandbox's test cards). */
export function brandOf(number: string): 'visa' | 'mastercard' | 'amex' | 'diners' {
  if (number.startsWith('4')) return 'visa';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^3[068]/.test(number)) return 'diners';
  return 'mastercard';
}

/**
 * The body the card form posts to `POST {mount}/payments` (and `/cards`): the card `number` with
 * a holder, an expiry three years on, its brand's CVV and a 1280x800 screen. `card` replaces or
 * adds card fields (a bad value under test); `body` adds body fields (`shown`, `saveCard`).
 */
export function cardBody(
  number: string,
  card: Record<string, unknown> = {},
  body: Record<string, unknown> = {},
) {
  const type = brandOf(number);
  return {
    card: {
      number,
      cardHolder: 'Test Shopper',
      expiryMonth: 12,
      expiryYear: EXPIRY_YEAR,
      cvv: type === 'amex' ? '1234' : '123',
      type,
      ...card,
    },
    screenWidth: 1280,
    screenHeight: 800,
    ...body,
  };
}
