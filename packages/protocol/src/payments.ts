import { z } from 'zod';
import { CardType, HOME_CURRENCY } from './constants.js';
import { creditCard, hasAmexPlaceholderCvv } from './cards.js';
import { subscription } from './consumers.js';
import { envelopeShape } from './envelope.js';
import {
  bool,
  cents,
  currency,
  integer,
  nonEmpty,
  obj,
  opt,
  positiveCents,
  reference,
  text,
  url,
  type Mode,
} from './internal/fields.js';
import { ThreeDSecureV1Schema, ThreeDSecureV2Schema } from './three-d-secure.js';
import { transaction } from './transactions.js';

const pixels = (field: string) =>
  text(field).regex(/^[1-9]\d{0,5}$/, `${field} must be a whole number of pixels as a string`);

function createPayment(mode: Mode) {
  return obj(mode, {
    creditCard: creditCard(mode),
    transaction: transaction(mode),
    threeDSecure: opt(mode, bool('threeDSecure')),
    supports3dsV2: opt(mode, bool('supports3dsV2')),
    autoExecute: opt(mode, bool('autoExecute')),
    callbackUrl: opt(mode, url('callbackUrl')),
    clientIp: opt(mode, nonEmpty('clientIp')),
    screenWidth: opt(mode, pixels('screenWidth')),
    screenHeight: opt(mode, pixels('screenHeight')),
    subscription: opt(mode, subscription(mode)),
    affiliateMerchantId: opt(mode, integer('affiliateMerchantId')),
    recurring: opt(mode, bool('recurring')),
    initialRef: opt(mode, nonEmpty('initialRef')),
  }).superRefine((req, ctx) => {
    if (req.transaction.currency !== HOME_CURRENCY) {
      ctx.addIssue({
        code: 'custom',
        path: ['transaction', 'currency'],
        message: `currency must be ${HOME_CURRENCY} for v2 card payments (other currencies use v3 create)`,
      });
    }
    if (req.supports3dsV2 === true && req.callbackUrl === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['callbackUrl'],
        message: 'callbackUrl is required when supports3dsV2 is true',
      });
    }
    const card = req.creditCard;
    if (hasAmexPlaceholderCvv(card) && req.recurring !== true) {
      ctx.addIssue({
        code: 'custom',
        path: ['creditCard', 'cvv'],
        message:
          "cvv must be a string of 4 digits for amex ('000' only on subsequent recurring payments)",
      });
    }
    if ('number' in card) {
      if (card.cvv === undefined && req.recurring !== true) {
        ctx.addIssue({
          code: 'custom',
          path: ['creditCard', 'cvv'],
          message: 'cvv is required (it may be omitted only for subsequent recurring payments)',
        });
      }
      if (card.type === CardType.VISA) {
        for (const field of ['clientIp', 'screenWidth', 'screenHeight'] as const) {
          if (req[field] === undefined) {
            ctx.addIssue({
              code: 'custom',
              path: [field],
              message: `${field} is required for visa cards`,
            });
          }
        }
      }
    }
  });
}

export const CreatePaymentRequestSchema = createPayment('strict');
export const CreatePaymentRequestLenientSchema = createPayment('lenient');
export type CreatePaymentRequest = z.input<typeof CreatePaymentRequestSchema>;

/** Create payment and Step 2 confirm: approval, or code 2 with exactly one 3D Secure object. */
export const CreatePaymentResponseSchema = z.looseObject({
  ...envelopeShape,
  threeDSecure: ThreeDSecureV1Schema.nullish(),
  threeDSecureV2: ThreeDSecureV2Schema.nullish(),
});
export type CreatePaymentResponse = z.infer<typeof CreatePaymentResponseSchema>;

function confirmV1(mode: Mode) {
  return obj(mode, { paRes: nonEmpty('paRes') });
}
function confirmV2(mode: Mode) {
  return obj(mode, {
    paRes: z.null({ error: 'paRes must be null for a 3D Secure V2 confirm' }),
    cres: nonEmpty('cres'),
  });
}

export const ConfirmV1RequestSchema = confirmV1('strict');
export const ConfirmV1RequestLenientSchema = confirmV1('lenient');
export type ConfirmV1Request = z.input<typeof ConfirmV1RequestSchema>;
export const ConfirmV2RequestSchema = confirmV2('strict');
export const ConfirmV2RequestLenientSchema = confirmV2('lenient');
export type ConfirmV2Request = z.input<typeof ConfirmV2RequestSchema>;

/** What the shared confirm endpoint accepts: paRes (V1) or cres (V2), exactly one. */
export const ConfirmRequestLenientSchema = z
  .object({
    paRes: opt('lenient', nonEmpty('paRes')),
    cres: opt('lenient', nonEmpty('cres')),
  })
  .superRefine((req, ctx) => {
    if ((req.paRes === undefined) === (req.cres === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'send exactly one of paRes (3D Secure V1) or cres (3D Secure V2)',
      });
    }
  });
export type ConfirmRequest = z.infer<typeof ConfirmRequestLenientSchema>;

/** V1 and V2 confirm answer; the V2 authentication failure also nests `error`. */
export const ConfirmResponseSchema = z.looseObject({
  ...envelopeShape,
  error: z
    .looseObject({ code: z.number().int().nullish(), message: z.string().nullish() })
    .nullish(),
});
export type ConfirmResponse = z.infer<typeof ConfirmResponseSchema>;

function step2Confirm(mode: Mode) {
  return obj(mode, {
    reference: nonEmpty('reference'),
    txId: nonEmpty('txId'),
    transactionId: nonEmpty('transactionId'),
  });
}
export const Step2ConfirmRequestSchema = step2Confirm('strict');
export const Step2ConfirmRequestLenientSchema = step2Confirm('lenient');
export type Step2ConfirmRequest = z.input<typeof Step2ConfirmRequestSchema>;
export const Step2ConfirmResponseSchema = CreatePaymentResponseSchema;
export type Step2ConfirmResponse = CreatePaymentResponse;

function execute(mode: Mode) {
  return obj(mode, {
    transaction: obj(mode, {
      currency: currency(),
      amount: cents().refine((n) => n >= 0, 'amount must not be negative (0 reverses the funds)'),
    }),
  });
}
export const ExecuteRequestSchema = execute('strict');
export const ExecuteRequestLenientSchema = execute('lenient');
export type ExecuteRequest = z.input<typeof ExecuteRequestSchema>;

/** Execute and refund answer `{success, transactionDate}`; failures add message and codes. */
export const ExecuteResponseSchema = z.looseObject(envelopeShape);
export type ExecuteResponse = z.infer<typeof ExecuteResponseSchema>;

function refund(mode: Mode) {
  return obj(mode, {
    transaction: obj(mode, {
      reference: opt(mode, reference('transaction.reference')),
      currency: currency(),
      amount: positiveCents(),
    }),
  });
}
export const RefundRequestSchema = refund('strict');
export const RefundRequestLenientSchema = refund('lenient');
export type RefundRequest = z.input<typeof RefundRequestSchema>;
export const RefundResponseSchema = z.looseObject(envelopeShape);
export type RefundResponse = z.infer<typeof RefundResponseSchema>;

function refundMultiple(mode: Mode) {
  const item = obj(mode, {
    serviceReference: nonEmpty('serviceReference'),
    reference: opt(mode, reference('reference')),
    currency: currency(),
    amount: positiveCents(),
  });
  const list = z.array(item, { error: 'transactions must be an array' });
  return obj(mode, {
    synchronous: bool('synchronous'),
    // Our client never sends an empty list; a server answers that with code -1, as the spec says.
    transactions:
      mode === 'strict'
        ? list.min(1, 'transactions must list at least one refund')
        : opt(mode, list),
  });
}
export const RefundMultipleRequestSchema = refundMultiple('strict');
export const RefundMultipleRequestLenientSchema = refundMultiple('lenient');
export type RefundMultipleRequest = z.input<typeof RefundMultipleRequestSchema>;

export const RefundMultipleItemResultSchema = z.looseObject({
  success: z.boolean(),
  serviceReference: z.string(),
  reference: z.string().nullish(),
  message: z.string().nullish(),
  originalErrorCode: z.string().nullish(),
  code: z.number().int().nullish(),
});
export type RefundMultipleItemResult = z.infer<typeof RefundMultipleItemResultSchema>;

export const RefundMultipleResponseSchema = z.looseObject({
  ...envelopeShape,
  synchronous: z.boolean().nullish(),
  transactions: z.array(RefundMultipleItemResultSchema).nullish(),
});
export type RefundMultipleResponse = z.infer<typeof RefundMultipleResponseSchema>;
