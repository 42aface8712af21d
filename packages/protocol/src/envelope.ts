import { z } from 'zod';

/** Fields every answer may carry; `success` is always there. Unknown fields pass through. */
export const envelopeShape = {
  success: z.boolean(),
  message: z.string().nullish(),
  code: z.number().int().nullish(),
  originalErrorCode: z.string().nullish(),
  reference: z.string().nullish(),
  transactionDate: z.string().nullish(),
};

export const GatewayResponseSchema = z.looseObject(envelopeShape);
export type GatewayResponse = z.infer<typeof GatewayResponseSchema>;

/** A failure answer: success false and a message a shopper can read. */
export const FailureResponseSchema = z.looseObject({
  ...envelopeShape,
  success: z.literal(false),
  message: z.string(),
  // Only the V2 confirm authentication failure nests this.
  error: z
    .looseObject({ code: z.number().int().nullish(), message: z.string().nullish() })
    .nullish(),
});
export type FailureResponse = z.infer<typeof FailureResponseSchema>;

/** `{success, merchant}`: GET and POST /pg/api/v2/util/validate. */
export const ValidateResponseSchema = z.looseObject({
  ...envelopeShape,
  merchant: z.string().nullish(),
});
export type ValidateResponse = z.infer<typeof ValidateResponseSchema>;
