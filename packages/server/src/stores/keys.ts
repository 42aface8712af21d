/**
 * Store keys. An order's keys share one Redis Cluster hash tag (`{o:...}`), a payment's another
 * (`{p:...}`), so the keys of one atomic store call always land in one slot.
 */
const tag = (kind: string, id: string) => `{${kind}:${encodeURIComponent(id)}}`;

export const orderKeys = (order: string) => {
  const t = tag('o', order);
  return {
    lock: `${t}:lock`,
    ledger: `${t}:ledger`,
    /** A client's turn to post a bank's proof for attempt `n` (see bank-limits.ts). */
    bankTurn: (n: number, client: string) => `${t}:bank:${n}:${encodeURIComponent(client)}`,
  };
};

export const paymentKeys = (reference: string) => {
  const t = tag('p', reference);
  return {
    /** Where the release before kept the payment's record; now in its order's document. */
    record: `${t}:pay`,
    /** The payment's merchant reference (`order-n`): the way from a gateway reference to its order's document. */
    order: `${t}:order`,
    retry: `${t}:confirm-retry`,
    hook: (status: string) => `${t}:hook:${status}`,
    /**
     * A money fact: `running:<token>` while one hook call holds it, `1` once the hook resolved. A
     * charge keeps the key earlier versions set (`hook:approved`), so an upgrade does not hand it
     * over again.
     */
    delivered: (fact: string) => `${t}:hook:${fact === 'completed' ? 'approved' : fact}`,
    /** A money fact whose hook has not resolved yet: the event, kept for the retry and the sweep. */
    outbox: (fact: string) => `${t}:outbox:${fact}`,
    /** A pending refund (by its merchant reference) already on the sweep's list. */
    refundWatch: `${t}:refund-watch`,
    /** A notification whose (status, amount) the gateway confirmed and the shop was handed: its replays cost nothing. */
    notified: (status: string, amount: number) =>
      `${t}:notified:${encodeURIComponent(status)}:${String(amount)}`,
    /** Gateway lookups a notification of this payment cost in the current window. */
    notifyLookups: `${t}:notify-lookups`,
    /** The payment's refund book: each refund slot and the caller's key it belongs to. */
    refunds: `${t}:refunds`,
    /** Held while one refund of the payment counts what is left and sends. */
    refundLock: `${t}:refund-lock`,
    /** Under a hashed refund prefix (`h<hex>`): the payment it stands for. */
    refundPayment: `${t}:refund-payment`,
  };
};

/** The sweep's work list: a sequence of items (outbox entries, open attempts), one hash tag. */
export const sweepKeys = {
  seq: '{d:sweep}:seq',
  head: '{d:sweep}:head',
  lock: '{d:sweep}:lock',
  item: (n: number) => `{d:sweep}:item:${n}`,
};

export const cardKeys = {
  shopper: (shopperId: string) => `${tag('s', shopperId)}:cards`,
  holders: (token: string) => `${tag('v', token)}:holders`,
};

/** A gateway reference as it may appear in a path: what the gateway and the store can take. */
export const REFERENCE = /^[A-Za-z0-9._:~-]{1,99}$/;
