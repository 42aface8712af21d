import type { CardType } from '../vocabulary/index.js';

export type { CardType };

/** Raw card data exactly as the gateway expects it (cvv a string, month and year numbers). */
export interface CardDetails {
  number: string;
  cardHolder: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
  type: CardType;
}

/** A card stored in the vault, referenced by its token. */
export interface CardToken {
  token: string;
}

/** The total the page showed (cents): checked against the order, never charged from. */
export interface ShownTotal {
  amount: number;
  currency: string;
}

/** Body of `POST {mount}/payments`. */
export interface PaymentRequest {
  card: CardDetails | CardToken;
  screenWidth: number;
  screenHeight: number;
  saveCard?: boolean;
  /** The total the page showed on Pay (cents): the middleware refuses `amount_changed` when the order differs. */
  shown?: ShownTotal | undefined;
}

/** Body of `POST {mount}/hosted|redirect|eft`. */
export interface RedirectRequest {
  consumer?: {
    name?: string;
    surname?: string;
    email?: string;
    mobile?: string;
    consumerAddress?: {
      addressLineOne?: string;
      city?: string;
      postCode?: string;
      country?: string;
    };
  };
  shown?: ShownTotal | undefined;
}

/** Body of `POST {mount}/cards`. */
export interface SaveCardRequest {
  card: CardDetails;
}

/** Body of the routes that act on a payment the browser owns (the secret goes in a header). */
export type EmptyRequest = Record<string, never>;

/**
 * `POST {mount}/form/pay`, form-encoded: the server-rendered card form as a browser posts it when no
 * script took it over. `pg_form` is the form token the page was rendered with. No money field.
 */
export interface FormPaymentRequest {
  number: string;
  holder: string;
  /** `MM/YY` (or `MMYY`, `MM/YYYY`). */
  expiry: string;
  cvv: string;
  pg_form: string;
}
