import { pgEvent } from './event.js';
/** The card was declined or authentication failed; the shopper may try another card. */
export type PgDeclinedDetail = {
  reference?: string | undefined;
  code: string;
  originalErrorCode?: string | undefined;
  message: string;
};
export type PgDeclinedEvent = CustomEvent<PgDeclinedDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-declined': PgDeclinedEvent;
  }
}

export function createPgDeclinedEvent(detail: PgDeclinedDetail): PgDeclinedEvent {
  return pgEvent('pg-declined', detail);
}
