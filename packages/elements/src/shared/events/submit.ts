import { pgEvent } from './event.js';
import type { CardType } from '../../api/types.js';

/** A valid card form was submitted. Card number and CVV are never in the detail; call `getPaymentRequest()` on the form. Cancel it to stop the drop-in from paying. */
export type PgSubmitDetail = {
  cardType?: CardType | undefined;
  savedCard: boolean;
  saveCard: boolean;
};
export type PgSubmitEvent = CustomEvent<PgSubmitDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-submit': PgSubmitEvent;
  }
}

export function createPgSubmitEvent(detail: PgSubmitDetail): PgSubmitEvent {
  return pgEvent('pg-submit', detail, true);
}
