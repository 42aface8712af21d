import { pgEvent } from './event.js';
import type { CheckoutStatus } from './status.js';

/** The drop-in's `status` changed. */
export type PgStatusChangeDetail = { status: CheckoutStatus; previous: CheckoutStatus };
export type PgStatusChangeEvent = CustomEvent<PgStatusChangeDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-status-change': PgStatusChangeEvent;
  }
}

export function createPgStatusChangeEvent(detail: PgStatusChangeDetail): PgStatusChangeEvent {
  return pgEvent('pg-status-change', detail);
}
