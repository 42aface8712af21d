import { createContext } from '@lit/context';
import type { CheckoutApi } from '../api/client.js';
import type { PaymentRequest, SavedCard } from '../api/types.js';
import type { Messages, Translate } from '../i18n/localize.js';

/** The form that asked for a payment, so the drop-in can clear it for another card after a decline. */
export interface PaymentSource {
  clearCard(): Promise<void>;
}

/** What `<pg-checkout>` shares with the parts inside it. */
export interface CheckoutContext {
  api?: CheckoutApi | undefined;
  locale: string;
  messages: Partial<Messages>;
  t: Translate;
  savedCards: SavedCard[];
  allowSave: boolean;
  /** Pay button label, already localized (for example "Pay R 100,00"). */
  payLabel?: string | undefined;
  /** Runs the payment for a card form's request; resolves when the attempt is over. */
  pay?: ((request: PaymentRequest, form: PaymentSource) => Promise<void>) | undefined;
}

export const checkoutContext = createContext<CheckoutContext | undefined>(Symbol('pg-checkout'));
