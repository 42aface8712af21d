/** The drop-in's running card payment, kept in sessionStorage so a reload can pick it up again. */
export interface RunningPayment {
  reference: string;
  clientSecret: string;
}

const key = (endpoint: string): string => `pg-checkout:payment:${endpoint}`;

// Storage may be missing or throw (disabled cookies, sandboxed frames, private modes): then nothing resumes.
function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage ?? undefined;
  } catch {
    return undefined;
  }
}

export function saveRunningPayment(endpoint: string, running: RunningPayment): void {
  try {
    storage()?.setItem(key(endpoint), JSON.stringify(running));
  } catch {
    // full or refused: the payment still runs, it just cannot be resumed after a reload
  }
}

export function loadRunningPayment(endpoint: string): RunningPayment | undefined {
  try {
    const raw = storage()?.getItem(key(endpoint));
    if (!raw) return undefined;
    const value = JSON.parse(raw) as Partial<RunningPayment> | null;
    if (typeof value?.reference === 'string' && typeof value.clientSecret === 'string')
      return { reference: value.reference, clientSecret: value.clientSecret };
  } catch {
    // unreadable entry: treated as none
  }
  return undefined;
}

/** Forgets the entry, but only when it still is `reference` (a newer payment keeps its own). */
export function clearRunningPayment(endpoint: string, reference: string): void {
  try {
    if (loadRunningPayment(endpoint)?.reference === reference) storage()?.removeItem(key(endpoint));
  } catch {
    // nothing to clear
  }
}

const orderKey = (endpoint: string): string => `pg-checkout:order:${endpoint}`;

/**
 * Marks (`true`), clears (`false`) or reads (no `set`) "this browser asked to pay at `endpoint`", in
 * localStorage so a reload and a new tab know to ask the order before offering to pay it again.
 */
export function orderMark(endpoint: string, set?: boolean): boolean {
  try {
    const store = globalThis.localStorage;
    if (set) store.setItem(orderKey(endpoint), '1');
    else if (set === false) store.removeItem(orderKey(endpoint));
    return store.getItem(orderKey(endpoint)) === '1';
  } catch {
    return false;
  }
}
