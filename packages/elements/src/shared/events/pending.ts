import { pgEvent } from './event.js';
/** The payment is waiting on the gateway (for example a manual step); a webhook follows. */
export type PgPendingDetail = { reference: string; message: string };
export type PgPendingEvent = CustomEvent<PgPendingDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-pending': PgPendingEvent;
  }
}

export function createPgPendingEvent(detail: PgPendingDetail): PgPendingEvent {
  return pgEvent('pg-pending', detail);
}
