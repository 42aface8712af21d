import { z } from 'zod';
import { consumer, urls } from './consumers.js';
import { envelopeShape } from './envelope.js';
import { bool, day, integer, nonEmpty, obj, opt, type Mode } from './internal/fields.js';
import { checkTransferShare, preparedTransfer, transaction } from './transactions.js';

/** The spec sets no minimum; a server takes 0 (what clients send for an unset number) as the default 1. */
const pax = (mode: Mode) =>
  z
    .number({ error: 'pax must be a JSON number' })
    .int('pax must be a whole number')
    .min(
      mode === 'strict' ? 1 : 0,
      mode === 'strict' ? 'pax must be at least 1' : 'pax must not be negative',
    );

/** Travel and delivery details shared by v3 create, v3 edit and redirect create. */
export function travelFields(mode: Mode) {
  return {
    description: opt(mode, nonEmpty('description')),
    transactionDate: opt(mode, day('transactionDate')),
    destinationCountry: opt(mode, nonEmpty('destinationCountry')),
    pax: opt(mode, pax(mode)),
  };
}

function createForeignPayment(mode: Mode) {
  return obj(mode, {
    transaction: transaction(mode),
    threeDSecure: opt(mode, bool('threeDSecure')),
    // Our client always sends urls; a server answers a missing urls object with code 3, as the spec says.
    urls: mode === 'strict' ? urls(mode) : opt(mode, urls(mode)),
    consumer: opt(mode, consumer(mode)),
    authorize: opt(mode, bool('authorize')),
    allowMultiCurrencyPurchase: opt(mode, bool('allowMultiCurrencyPurchase')),
    ...travelFields(mode),
    affiliateMerchantId: opt(mode, integer('affiliateMerchantId')),
    transfer: opt(mode, preparedTransfer(mode)),
  }).superRefine((req, ctx) => {
    if (!req.transfer) return;
    const problem = checkTransferShare(req.transaction, req.transfer);
    if (problem)
      ctx.addIssue({ code: 'custom', path: ['transfer', 'toMerchants'], message: problem });
  });
}

export const CreateForeignPaymentRequestSchema = createForeignPayment('strict');
export const CreateForeignPaymentRequestLenientSchema = createForeignPayment('lenient');
export type CreateForeignPaymentRequest = z.input<typeof CreateForeignPaymentRequestSchema>;

/** v3 create: where to send the consumer (the hosted page collects the card and runs 3D Secure). */
export const CreateForeignPaymentResponseSchema = z.looseObject({
  ...envelopeShape,
  redirectUrl: z.string().nullish(),
});
export type CreateForeignPaymentResponse = z.infer<typeof CreateForeignPaymentResponseSchema>;

function editForeignPayment(mode: Mode) {
  return obj(mode, {
    consumer: opt(mode, consumer(mode)),
    ...travelFields(mode),
    // Replaces earlier transfers; the 90% rule needs the payment amount, which the gateway checks.
    transfer: opt(mode, preparedTransfer(mode)),
  });
}
export const EditForeignPaymentRequestSchema = editForeignPayment('strict');
export const EditForeignPaymentRequestLenientSchema = editForeignPayment('lenient');
export type EditForeignPaymentRequest = z.input<typeof EditForeignPaymentRequestSchema>;

function addForeignTransfer(mode: Mode) {
  return obj(mode, { transfer: preparedTransfer(mode) });
}
export const AddForeignTransferRequestSchema = addForeignTransfer('strict');
export const AddForeignTransferRequestLenientSchema = addForeignTransfer('lenient');
export type AddForeignTransferRequest = z.input<typeof AddForeignTransferRequestSchema>;

/** Edit, add transfer and cancel transfer answer `{success, reference, message}` (code 1 with success false: refused). */
export const ForeignChangeResponseSchema = z.looseObject(envelopeShape);
export type ForeignChangeResponse = z.infer<typeof ForeignChangeResponseSchema>;
