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
    record: `${t}:pay`,
    retry: `${t}:confirm-retry`,
    hook: (status: string) => `${t}:hook:${status}`,
  };
};

export const cardKeys = {
  shopper: (shopperId: string) => `${tag('s', shopperId)}:cards`,
  holders: (token: string) => `${tag('v', token)}:holders`,
};

/** A gateway reference as it may appear in a path: what the gateway and the store can take. */
export const REFERENCE = /^[A-Za-z0-9._:~-]{1,99}$/;
