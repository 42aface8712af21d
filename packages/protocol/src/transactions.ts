import { z } from 'zod';
import { HOME_CURRENCY, MAX_FOREIGN_TRANSFER_SHARE } from './constants.js';
import {
  currency,
  integer,
  obj,
  opt,
  positiveCents,
  reference,
  text,
  type Mode,
} from './internal/fields.js';

/** Transaction object of a request: merchant reference, currency, amount in cents. */
export function transaction(mode: Mode) {
  return obj(mode, {
    reference: reference('reference'),
    currency: currency(),
    amount: positiveCents(),
    source: opt(mode, text('source')),
    displayCurrency: opt(mode, currency('displayCurrency')),
  });
}

export const TransactionSchema = transaction('strict');
export const TransactionLenientSchema = transaction('lenient');
export type Transaction = z.infer<typeof TransactionSchema>;

/** One receiver of a prepared (foreign-currency) transfer. */
function transferReceiver(mode: Mode) {
  return obj(mode, {
    currency: currency(),
    amount: positiveCents(),
    merchantId: integer('merchantId'),
    merchantReference: reference('merchantReference'),
  });
}

/** Prepared Transfer: part of a payment moved to affiliated merchants. */
export function preparedTransfer(mode: Mode) {
  return obj(mode, {
    reference: reference('reference'),
    toMerchants: z
      .array(transferReceiver(mode), { error: 'toMerchants must be an array' })
      .min(1, 'toMerchants must list at least one receiver'),
  });
}

export const PreparedTransferSchema = preparedTransfer('strict');
export const PreparedTransferLenientSchema = preparedTransfer('lenient');
export type PreparedTransfer = z.infer<typeof PreparedTransferSchema>;

/** Largest total a prepared transfer may move for a payment (90% unless the payment is in ZAR). */
export function maxTransferable(payment: { currency: string; amount: number }): number {
  if (payment.currency === HOME_CURRENCY) return payment.amount;
  return Math.floor(payment.amount * MAX_FOREIGN_TRANSFER_SHARE);
}

/**
 * The 90% rule: receivers of a non-ZAR payment may get at most 90% of its amount, and never more than
 * the payment itself. Returns a message when broken, else undefined.
 */
export function checkTransferShare(
  payment: { currency: string; amount: number },
  transfer: PreparedTransfer,
): string | undefined {
  const total = transfer.toMerchants.reduce((sum, r) => sum + r.amount, 0);
  const max = maxTransferable(payment);
  if (total <= max) return undefined;
  return payment.currency === HOME_CURRENCY
    ? `transfer total ${total} exceeds the payment amount ${payment.amount}`
    : `transfer total ${total} exceeds 90% of the ${payment.currency} payment amount ${payment.amount} (at most ${max})`;
}

/** Transaction Details: charges, payments, transfers and payouts as list endpoints return them. */
export const TransactionDetailsSchema = z.looseObject({
  id: z.number().int(),
  reference: z.string(),
  currency: z.string(),
  amount: z.number().int(),
  date: z.string(),
  source: z.string().nullish(),
  merchantReference: z.string().nullish(),
  paymentMethod: z.string().nullish(),
  status: z.string(),
  message: z.string().nullish(),
  suspended: z.boolean().optional(),
  merchant: z.string().nullish(),
  consumerFirstname: z.string().nullish(),
  consumerLastname: z.string().nullish(),
  consumerEmail: z.string().nullish(),
  fees: z.number().int().nullish(),
  feesVat: z.number().int().nullish(),
  feesPercentage: z.number().nullish(),
  pending: z.boolean().optional(),
});
export type TransactionDetails = z.infer<typeof TransactionDetailsSchema>;
