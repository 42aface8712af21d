import { pgEvent } from './event.js';
/** The payment was approved. */
export type PgApprovedDetail = { reference: string; message: string };
export type PgApprovedEvent = CustomEvent<PgApprovedDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-approved': PgApprovedEvent;
  }
}

export function createPgApprovedEvent(detail: PgApprovedDetail): PgApprovedEvent {
  return pgEvent('pg-approved', detail);
}
