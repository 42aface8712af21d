import { pgEvent } from '../../shared/events/event.js';
/** The shopper closed the bank check: its outcome is being confirmed with the middleware. */
export type Pg3dsCheckingDetail = { reference: string };
export type Pg3dsCheckingEvent = CustomEvent<Pg3dsCheckingDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-threeds-checking': Pg3dsCheckingEvent;
  }
}

export function createPg3dsCheckingEvent(detail: Pg3dsCheckingDetail): Pg3dsCheckingEvent {
  return pgEvent('pg-threeds-checking', detail);
}
