import { conflict } from './errors.js';
import type { Status, Txn } from './types.js';

/** Every transition the sandbox allows; anything else is refused with HTTP 409. */
export const TRANSITIONS: Readonly<Record<Status, readonly Status[]>> = {
  NEW: ['THREE_D_SECURE', 'AUTHORIZED', 'SETTLED', 'FAILED', 'CANCELLED', 'REFUNDED'],
  THREE_D_SECURE: ['AUTHORIZED', 'SETTLED', 'FAILED', 'CANCELLED'],
  AUTHORIZED: ['SETTLED', 'REVERSED'],
  SETTLED: ['REFUNDED'],
  REFUNDED: [],
  FAILED: [],
  REVERSED: [],
  CANCELLED: [],
};

export function canTransition(from: Status, to: Status): boolean {
  return TRANSITIONS[from].includes(to);
}

export function transition(txn: Txn, to: Status, now: number): void {
  if (!canTransition(txn.status, to)) {
    throw conflict(`Transaction ${txn.reference} is ${txn.status} and cannot become ${to}`, {
      reference: txn.reference,
    });
  }
  txn.status = to;
  txn.updatedAt = now;
}
