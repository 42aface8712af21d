import type { PaymentState } from '../payment-state.js';
import type { PaymentMethodKind } from '../options.js';
import type { Context } from '../setup/context.js';
import { paymentKeys } from '../stores/keys.js';
import type { TraceOrigin } from '../telemetry/index.js';

/** What the store keeps about one payment; never card data. A cache: the gateway is the truth. */
export interface PaymentRecord {
  reference: string;
  merchantReference: string;
  orderReference: string;
  amount: number;
  currency: string;
  /** The checkout page's origin, where the 3-D Secure completion page posts its message. */
  pageOrigin?: string;
  /** How it was started; hosted-redirect payments have their own lookup. Default `'card'`. */
  method?: PaymentMethodKind;
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
  /** The span where the payment began: 3-D Secure completion and webhooks link to its trace. */
  trace?: TraceOrigin;
}

export interface SavedCard {
  token: string;
  number: string;
  type: string;
  expiryMonth: number;
  expiryYear: number;
  cardHolder: string;
}

export async function loadPayment(
  ctx: Context,
  reference: string,
): Promise<PaymentRecord | undefined> {
  const raw = await ctx.store.get(paymentKeys(reference).record);
  if (!raw) return undefined;
  const record = JSON.parse(raw) as PaymentRecord;
  ctx.telemetry.linkPayment(record);
  return record;
}

/** Like {@link loadPayment}, but a store failure reads as "not kept" (logged): the gateway answers instead. */
export async function loadPaymentSafely(
  ctx: Context,
  reference: string,
): Promise<PaymentRecord | undefined> {
  try {
    return await loadPayment(ctx, reference);
  } catch (error) {
    ctx.logger.error('store read failed; asking the gateway instead', { reference, error });
    return undefined;
  }
}

export async function savePayment(ctx: Context, record: PaymentRecord): Promise<void> {
  const trace = record.trace ?? ctx.telemetry.origin();
  await ctx.store.set(
    paymentKeys(record.reference).record,
    JSON.stringify(trace ? { ...record, trace } : record),
    ctx.recordTtlMs,
  );
}

export function isFinal(state: PaymentState): boolean {
  return state.status === 'approved' || state.status === 'declined' || state.status === 'failed';
}
