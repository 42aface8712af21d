import { CARD_TYPES, type CardType as Brand } from './vocabulary/cards.js';

/** Response codes the gateway documents, by meaning. */
export const ResponseCode = {
  APPROVED: 1,
  THREE_D_SECURE_REQUIRED: 2,
  THREE_D_SECURE_FAILED: 3,
  PENDING_REFUND: 7,
  NO_PAYMENT_PAGE: 19,
  FAILURE: -1,
} as const;
export type ResponseCode = (typeof ResponseCode)[keyof typeof ResponseCode];

/** What each documented response code means, in the spec's words. */
export const ResponseCodeMeaning: Readonly<Record<ResponseCode, string>> = {
  1: 'success (approved / successful operation); with success false in edit payment, add transfer and cancel transfer it is a refusal',
  2: '3D Secure authentication required; the transaction is pending',
  3: '3D Secure authentication failed (also: urls missing in v3 create)',
  7: 'pending refund: processed manually, may succeed later',
  19: 'merchant has no payment page set up',
  [-1]: 'general failure (for example insufficient funds, card blocked)',
};

/** Transaction statuses, plus NEW (a pending payment or pending refund). */
export const TransactionStatus = {
  AUTHORIZED: 'AUTHORIZED',
  SETTLED: 'SETTLED',
  CANCELLED: 'CANCELLED',
  REFUNDED: 'REFUNDED',
  THREE_D_SECURE: 'THREE_D_SECURE',
  FAILED: 'FAILED',
  REVERSED: 'REVERSED',
  NEW: 'NEW',
} as const;
export type TransactionStatus = (typeof TransactionStatus)[keyof typeof TransactionStatus];
export const TRANSACTION_STATUSES = Object.values(TransactionStatus) as [
  TransactionStatus,
  ...TransactionStatus[],
];

/** The brands by constant name (`CardType.AMEX`), from the one table in `vocabulary/cards.ts`. */
export const CardType = Object.fromEntries(
  CARD_TYPES.map((type) => [type.toUpperCase(), type]),
) as { readonly [T in Brand as Uppercase<T>]: T };
export type CardType = Brand;
export { CARD_TYPES };

/** Payment methods seen in the spec's samples; the full list is not published, so others pass through. */
export const PaymentMethod = {
  CARD: 'CC',
  TRANSFER: 'TRANSFER',
} as const;
export type PaymentMethod = (typeof PaymentMethod)[keyof typeof PaymentMethod];

/** The original error codes the spec names. */
export const OriginalErrorCode = {
  DECLINED: 'fin005',
  THREE_D_SECURE_FAILED: 'fin006',
  PENDING_REFUND: 'fin012',
} as const;

/** Longest merchant reference the gateway accepts. */
export const MAX_REFERENCE_LENGTH = 99;

/** Share of a non-ZAR payment that prepared transfers may move to affiliates. */
export const MAX_FOREIGN_TRANSFER_SHARE = 0.9;

/** The home currency: prepared transfers in it are not capped, v2 transfers accept only it. */
export const HOME_CURRENCY = 'ZAR';
