import { z } from 'zod';
import { envelopeShape } from './envelope.js';
import {
  cents,
  integer,
  isoMillis,
  nonEmpty,
  obj,
  opt,
  text,
  type Mode,
} from './internal/fields.js';
import { TransactionDetailsSchema } from './transactions.js';

/**
 * A status as lookups report it: the spec's statuses and `NEW`, open to values the spec does not
 * list (a new one must not make a lookup fail), while editors still complete the known ones.
 */
export type LookupStatus =
  | 'AUTHORIZED'
  | 'SETTLED'
  | 'CANCELLED'
  | 'REFUNDED'
  | 'THREE_D_SECURE'
  | 'FAILED'
  | 'REVERSED'
  | 'NEW'
  | (string & {});
const lookupStatus = z.string() as unknown as z.ZodType<LookupStatus, string>;

/** Transaction lookup record: by reference and by merchant reference (refunds have negative amounts). */
export const TransactionLookupRecordSchema = z.looseObject({
  ...envelopeShape,
  reference: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: lookupStatus,
  pending: z.boolean().nullish(),
  date: z.string(),
  settlementDate: z.string().nullish(),
  settlementId: z.number().int().nullish(),
  settlementAmount: z.number().int().nullish(),
});
export type TransactionLookupRecord = z.infer<typeof TransactionLookupRecordSchema>;

/** Redirect lookup record: no pending or settlement fields. */
export const RedirectLookupRecordSchema = z.looseObject({
  ...envelopeShape,
  reference: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: lookupStatus,
  date: z.string(),
});
export type RedirectLookupRecord = z.infer<typeof RedirectLookupRecordSchema>;

/** A lookup answer before we know it found something (success false carries only the envelope). */
export const LookupResponseSchema = z.looseObject(envelopeShape);

function listPayments(mode: Mode) {
  return obj(mode, {
    merchantReference: opt(mode, nonEmpty('merchantReference')),
    paymentReference: opt(mode, nonEmpty('paymentReference')),
    fromDate: opt(mode, isoMillis('fromDate')),
    toDate: opt(mode, isoMillis('toDate')),
    consumerFirstname: opt(mode, nonEmpty('consumerFirstname')),
    consumerSurname: opt(mode, nonEmpty('consumerSurname')),
    consumerEmail: opt(mode, nonEmpty('consumerEmail')),
    amount: opt(mode, cents()),
    merchantId: opt(mode, integer('merchantId')),
    status: opt(mode, nonEmpty('status')),
    paymentMethod: opt(mode, text('paymentMethod').min(1, 'paymentMethod must not be empty')),
  }).superRefine((req, ctx) => {
    if (req.fromDate && req.toDate && req.fromDate > req.toDate) {
      ctx.addIssue({
        code: 'custom',
        path: ['toDate'],
        message: 'toDate must not be before fromDate',
      });
    }
  });
}
export const ListPaymentsRequestSchema = listPayments('strict');
export const ListPaymentsRequestLenientSchema = listPayments('lenient');
export type ListPaymentsRequest = z.input<typeof ListPaymentsRequestSchema>;

export const ListPaymentsResponseSchema = z.looseObject({
  ...envelopeShape,
  transactions: z.array(TransactionDetailsSchema).nullish(),
});
export type ListPaymentsResponse = z.infer<typeof ListPaymentsResponseSchema>;
