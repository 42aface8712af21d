import { pgEvent } from '../../shared/events/event.js';
import type { FinalPaymentState } from '../../api/types.js';

/** A 3-D Secure flow ended; `status` is the authoritative outcome read from the middleware. */
export type Pg3dsCompleteDetail = {
  reference: string;
  status: FinalPaymentState['status'];
  code?: string;
};
export type Pg3dsCompleteEvent = CustomEvent<Pg3dsCompleteDetail>;

// `threeds`, not `3ds`: Vue turns `@pg-3ds-complete` into a listener for `pg3ds-complete` (a digit after a hyphen).
declare global {
  interface GlobalEventHandlersEventMap {
    'pg-threeds-complete': Pg3dsCompleteEvent;
  }
}

export function createPg3dsCompleteEvent(detail: Pg3dsCompleteDetail): Pg3dsCompleteEvent {
  return pgEvent('pg-threeds-complete', detail);
}
