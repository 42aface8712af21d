/**
 * The ways a shopper can pay, declared once. Each redirect method has its route
 * (`POST {mount}/<method>`) and sends the shopper to the gateway's page; a new one is one entry here
 * plus its own code.
 */
export const REDIRECT_METHODS = ['hosted', 'eft', 'redirect'] as const;
/** A method that sends the shopper away to pay: `POST {mount}/hosted|eft|redirect`. */
export type RedirectMethod = (typeof REDIRECT_METHODS)[number];

/** Every method, the card first (the order the drop-in offers them in). */
export const PAYMENT_METHODS = ['card', ...REDIRECT_METHODS] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
