/** A 3-D Secure step began (the v2 method step or a challenge). */
export type Pg3dsStartDetail = { reference: string; version: 1 | 2; step: 'method' | 'challenge' };
export type Pg3dsStartEvent = CustomEvent<Pg3dsStartDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-3ds-start': Pg3dsStartEvent;
  }
}

export function createPg3dsStartEvent(detail: Pg3dsStartDetail): Pg3dsStartEvent {
  return new CustomEvent('pg-3ds-start', {
    detail,
    bubbles: true,
    composed: true,
    cancelable: false,
  });
}
