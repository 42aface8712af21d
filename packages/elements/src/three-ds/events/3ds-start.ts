import { pgEvent } from '../../shared/events/event.js';
/** A 3-D Secure step began (the v2 method step or a challenge). */
export type Pg3dsStartDetail = { reference: string; version: 1 | 2; step: 'method' | 'challenge' };
export type Pg3dsStartEvent = CustomEvent<Pg3dsStartDetail>;

// `threeds`, not `3ds`: Vue turns `@pg-3ds-start` into a listener for `pg3ds-start` (a digit after a hyphen).
declare global {
  interface GlobalEventHandlersEventMap {
    'pg-threeds-start': Pg3dsStartEvent;
  }
}

export function createPg3dsStartEvent(detail: Pg3dsStartDetail): Pg3dsStartEvent {
  return pgEvent('pg-threeds-start', detail);
}
