import { pgEvent } from './event.js';
/** The shopper is about to be sent to a payment page; cancel it to navigate yourself. */
export type PgRedirectDetail = {
  method: 'hosted' | 'eft' | 'redirect';
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
