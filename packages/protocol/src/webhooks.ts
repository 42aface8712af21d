import { z } from 'zod';

/** Payment notification POSTed to urls.notify; hash = MD5(paymentReference + secret). */
export const PaymentNotificationSchema = z.looseObject({
  success: z.boolean(),
  amount: z.number().int(),
  currency: z.string(),
  paymentReference: z.string().min(1),
  merchantReference: z.string().nullish(),
  paymentDate: z.string().nullish(),
  status: z.string(),
  date: z.string().nullish(),
  hash: z.string().regex(/^[0-9a-fA-F]{32}$/, 'hash must be 32 hex characters (MD5)'),
  bin: z.string().nullish(),
});
export type PaymentNotification = z.infer<typeof PaymentNotificationSchema>;

export const PayoutTransactionSchema = z.looseObject({
  merchantReference: z.string().nullish(),
  amount: z.number().int(),
  fees: z.number().int().nullish(),
  feesVat: z.number().int().nullish(),
  netAmount: z.number().int().nullish(),
  currency: z.string().nullish(),
  paymentReference: z.string().nullish(),
  status: z.string().nullish(),
  consumerEmail: z.string().nullish(),
  consumerFirstname: z.string().nullish(),
  consumerSurname: z.string().nullish(),
  threeDomainSecure: z.string().nullish(),
  dateCreated: z.string().nullish(),
  dateExecuted: z.string().nullish(),
  paymentMethod: z.string().nullish(),
});
export type PayoutTransaction = z.infer<typeof PayoutTransactionSchema>;

/** Payout webhook; hash = MD5(payoutId + the merchant's own secret), even for an affiliate's payout. */
export const PayoutWebhookSchema = z.looseObject({
  payoutDate: z.string(),
  totalAmount: z.number().int(),
  totalFees: z.number().int(),
  netTotal: z.number().int(),
  payoutId: z.number().int(),
  currency: z.string(),
  hash: z.string().regex(/^[0-9a-fA-F]{32}$/, 'hash must be 32 hex characters (MD5)'),
  merchantName: z.string().nullish(),
  merchantId: z.number().int(),
  channelId: z.number().int().nullish(),
  transactions: z.array(PayoutTransactionSchema),
});
export type PayoutWebhook = z.infer<typeof PayoutWebhookSchema>;
