import type { PaymentState } from '../payment-state.js';
import type { Context } from './context.js';

/** What the store keeps about one card payment; never card data. */
export interface PaymentRecord {
  reference: string;
  merchantReference: string;
  orderReference: string;
  amount: number;
  currency: string;
  pageOrigin: string;
  session: string;
  /** How it was started; hosted-redirect payments have their own lookup. Default `'card'`. */
  method?: 'card' | 'hosted' | 'redirect' | 'eft';
  state: PaymentState;
  /** Gateway-side 3-D Secure ids, checked against what the bank posts back. */
  threeDS?: {
    version: 1 | 2;
    transactionId: string;
    txId?: string;
    sessionData?: string;
    tdsMethodContent?: string;
    /** An earlier Step 2 confirm got no answer: the gateway may have moved on to a challenge we never saw. */
    step2Unknown?: boolean;
  };
  shopperId?: string;
  /** The bank's cres/PaRes whose confirm got no answer while the gateway still waits for it; re-sent later. */
  retryProof?: { version: 1 | 2; proof: string };
  /** Vault token registered for this payment, kept for the shopper once it is approved. */
  pendingCard?: SavedCard;
}

export interface SavedCard {
  token: string;
  number: string;
  type: string;
  expiryMonth: number;
  expiryYear: number;
  cardHolder: string;
}

const paymentKey = (reference: string) => `pay:${reference}`;
const sessionKey = (session: string) => `3ds:${session}`;

export async function loadPayment(
  ctx: Context,
  reference: string,
): Promise<PaymentRecord | undefined> {
  const raw = await ctx.store.get(paymentKey(reference));
  return raw ? (JSON.parse(raw) as PaymentRecord) : undefined;
}

export async function savePayment(ctx: Context, record: PaymentRecord): Promise<void> {
  await ctx.store.set(paymentKey(record.reference), JSON.stringify(record), ctx.recordTtlMs);
}

export async function bindSession(ctx: Context, session: string, reference: string): Promise<void> {
  await ctx.store.set(sessionKey(session), reference, ctx.sessionTtlMs);
}

export async function paymentForSession(
  ctx: Context,
  session: string,
): Promise<PaymentRecord | undefined> {
  const reference = await ctx.store.get(sessionKey(session));
  return reference ? loadPayment(ctx, reference) : undefined;
}

export function isFinal(state: PaymentState): boolean {
  return state.status === 'approved' || state.status === 'declined' || state.status === 'failed';
}
