import { z } from 'zod';
import { HOME_CURRENCY } from './constants.js';
import { consumer, urls } from './consumers.js';
import { envelopeShape } from './envelope.js';
import { travelFields } from './foreign.js';
import { bool, integer, nonEmpty, obj, opt, type Mode } from './internal/fields.js';
import { checkTransferShare, preparedTransfer, transaction } from './transactions.js';

function createRedirect(mode: Mode) {
  return obj(mode, {
    transaction: transaction(mode),
    // Not marked required in the spec; only non-ZAR payments need it, for the consumer's address.
    consumer: opt(mode, consumer(mode)),
    urls: urls(mode),
    auth: opt(mode, bool('auth')),
    pageUrlKey: opt(mode, nonEmpty('pageUrlKey')),
    threeDSecure: opt(mode, bool('threeDSecure')),
    ...travelFields(mode),
    affiliateMerchantId: opt(mode, integer('affiliateMerchantId')),
    recurring: opt(mode, bool('recurring')),
    transfer: opt(mode, preparedTransfer(mode)),
    hold: opt(mode, bool('hold')),
  }).superRefine((req, ctx) => {
    if (req.transaction.currency !== HOME_CURRENCY && !req.consumer?.consumerAddress) {
      ctx.addIssue({
        code: 'custom',
        path: ['consumer', 'consumerAddress'],
        message: `consumer.consumerAddress is required for ${req.transaction.currency} payments`,
      });
    }
    if (req.transfer) {
      const problem = checkTransferShare(req.transaction, req.transfer);
      if (problem)
        ctx.addIssue({ code: 'custom', path: ['transfer', 'toMerchants'], message: problem });
    }
  });
}
export const CreateRedirectRequestSchema = createRedirect('strict');
export const CreateRedirectRequestLenientSchema = createRedirect('lenient');
export type CreateRedirectRequest = z.input<typeof CreateRedirectRequestSchema>;

export const RedirectResponseSchema = z.looseObject({
  ...envelopeShape,
  redirectUrl: z.string().nullish(),
});
export type RedirectResponse = z.infer<typeof RedirectResponseSchema>;

function createEft(mode: Mode) {
  return obj(mode, {
    transaction: transaction(mode),
    consumer: consumer(mode),
    urls: urls(mode, 'absent'),
  });
}
export const CreateEftRequestSchema = createEft('strict');
export const CreateEftRequestLenientSchema = createEft('lenient');
export type CreateEftRequest = z.input<typeof CreateEftRequestSchema>;
export const CreateEftResponseSchema = RedirectResponseSchema;
export type CreateEftResponse = RedirectResponse;
