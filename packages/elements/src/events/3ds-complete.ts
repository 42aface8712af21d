import type { FinalPaymentState } from '../api/types.js';

/** A 3-D Secure flow ended; `status` is the authoritative outcome read from the middleware. */
export type Pg3dsCompleteDetail = {
  reference: string;
  status: FinalPaymentState['status'];
  code?: string;
};
export type Pg3dsCompleteEvent = CustomEvent<Pg3dsCompleteDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-3ds-complete': Pg3dsCompleteEvent;
  }
}

export function createPg3dsCompleteEvent(detail: Pg3dsCompleteDetail): Pg3dsCompleteEvent {
  return new CustomEvent('pg-3ds-complete', {
    detail,
    bubbles: true,
    composed: true,
    cancelable: false,
  });
}
