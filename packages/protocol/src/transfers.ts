import { z } from 'zod';
import { HOME_CURRENCY } from './constants.js';
import { envelopeShape } from './envelope.js';
import {
  currency,
  integer,
  isoMillis,
  nonEmpty,
  obj,
  opt,
  positiveCents,
  reference,
  text,
  type Mode,
} from './internal/fields.js';
import { TransactionDetailsSchema } from './transactions.js';

/** Affiliated merchant, as the merchant listing returns it. */
export const MerchantSchema = z.looseObject({
  id: z.number().int(),
  dateCreated: z.number().int().nullish(),
  dateUpdated: z.number().int().nullish(),
  name: z.string(),
  email: z.string().nullish(),
  enabled: z.boolean(),
  settings: z.unknown().optional(),
  logo: z.string().nullish(),
});
export type Merchant = z.infer<typeof MerchantSchema>;

/**
 * Merchant Transfer in a request; transferDate is optional for fromMerchant, and so is its merchantId:
 * the caller is the from merchant (the answer's fromMerchantId says which).
 */
function merchantTransfer(mode: Mode, side: 'from' | 'to') {
  const common = {
    merchantId: side === 'from' ? opt(mode, integer('merchantId')) : integer('merchantId'),
    merchantReference: reference('merchantReference'),
    currency: currency().refine(
      (c): boolean => c === HOME_CURRENCY,
      `currency must be ${HOME_CURRENCY}: v2 transfers are ZAR only (use v3 create or redirect create for forex)`,
    ),
    amount: positiveCents(),
    source: opt(mode, text('source')),
  };
  return side === 'from'
    ? obj(mode, { ...common, transferDate: opt(mode, isoMillis('transferDate')) })
    : obj(mode, { ...common, transferDate: isoMillis('transferDate') });
}
export const MerchantTransferSchema = merchantTransfer('strict', 'to');
export const MerchantTransferLenientSchema = merchantTransfer('lenient', 'to');
export type MerchantTransfer = z.infer<typeof MerchantTransferSchema>;

function createTransfer(mode: Mode) {
  return obj(mode, {
    fromMerchant: merchantTransfer(mode, 'from'),
    toMerchants: z
      .array(merchantTransfer(mode, 'to'), { error: 'toMerchants must be an array' })
      .min(1, 'toMerchants must list at least one receiver'),
    reference: reference('reference'),
  }).superRefine((req, ctx) => {
    const total = req.toMerchants.reduce((sum, t) => sum + t.amount, 0);
    if (total !== req.fromMerchant.amount) {
      ctx.addIssue({
        code: 'custom',
        path: ['toMerchants'],
        message: `toMerchants amounts sum to ${total} but fromMerchant.amount is ${req.fromMerchant.amount}`,
      });
    }
  });
}
export const CreateTransferRequestSchema = createTransfer('strict');
export const CreateTransferRequestLenientSchema = createTransfer('lenient');
export type CreateTransferRequest = z.input<typeof CreateTransferRequestSchema>;

/** A created transfer: transferDate comes back as epoch milliseconds. */
export const CreatedTransferSchema = z.looseObject({
  merchantId: z.number().int(),
  merchantReference: z.string().nullish(),
  currency: z.string(),
  amount: z.number().int(),
  transferDate: z.union([z.number().int(), z.string()]).nullish(),
  source: z.string().nullish(),
  reference: z.string(),
});
export type CreatedTransfer = z.infer<typeof CreatedTransferSchema>;

export const CreateTransferResponseSchema = z.looseObject({
  ...envelopeShape,
  transfers: z.array(CreatedTransferSchema).nullish(),
  fromMerchantId: z.number().int().nullish(),
});
export type CreateTransferResponse = z.infer<typeof CreateTransferResponseSchema>;

function cancelTransfer(mode: Mode) {
  return obj(mode, { reference: nonEmpty('reference') });
}
export const CancelTransferRequestSchema = cancelTransfer('strict');
export const CancelTransferRequestLenientSchema = cancelTransfer('lenient');
export type CancelTransferRequest = z.input<typeof CancelTransferRequestSchema>;
export const CancelTransferResponseSchema = z.looseObject(envelopeShape);
export type CancelTransferResponse = z.infer<typeof CancelTransferResponseSchema>;

export const ListMerchantsResponseSchema = z.looseObject({
  ...envelopeShape,
  merchants: z.array(MerchantSchema).nullish(),
});
export type ListMerchantsResponse = z.infer<typeof ListMerchantsResponseSchema>;

export const ListTransfersResponseSchema = z.looseObject({
  ...envelopeShape,
  transactions: z.array(TransactionDetailsSchema).nullish(),
});
export type ListTransfersResponse = z.infer<typeof ListTransfersResponseSchema>;
