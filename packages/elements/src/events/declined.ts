/** The card was declined or authentication failed; the shopper may try another card. */
export type PgDeclinedDetail = {
  reference?: string;
  code: string;
  originalErrorCode?: string;
  message: string;
};
export type PgDeclinedEvent = CustomEvent<PgDeclinedDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'pg-declined': PgDeclinedEvent;
  }
}

export function createPgDeclinedEvent(detail: PgDeclinedDetail): PgDeclinedEvent {
  return new CustomEvent('pg-declined', {
    detail,
    bubbles: true,
    composed: true,
    cancelable: false,
  });
}
