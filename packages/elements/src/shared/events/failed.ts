import { pgEvent } from './event.js';
/** The payment could not be completed (network, timeout, cancelled challenge, service error). */
export type PgFailedDetail = { reference?: string | undefined; code: string; message: string };
export type PgFailedEvent = CustomEvent<PgFailedDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-failed': PgFailedEvent;
  }
}

export function createPgFailedEvent(detail: PgFailedDetail): PgFailedEvent {
  return pgEvent('pg-failed', detail);
}
