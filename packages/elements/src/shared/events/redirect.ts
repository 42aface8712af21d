import type { RedirectMethod } from '@pg-checkout/protocol/vocabulary';
import { pgEvent } from './event.js';
/** The shopper is about to be sent to a payment page; cancel it to navigate yourself. */
export type PgRedirectDetail = {
  method: RedirectMethod;
  reference: string;
  redirectUrl: string;
};
export type PgRedirectEvent = CustomEvent<PgRedirectDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-redirect': PgRedirectEvent;
  }
}

export function createPgRedirectEvent(detail: PgRedirectDetail): PgRedirectEvent {
  return pgEvent('pg-redirect', detail, true);
}
