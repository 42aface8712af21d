import { z } from 'zod';
import {
  MaskedCardSchema,
  RawCardLenientSchema,
  RawCardSchema,
  hasAmexPlaceholderCvv,
} from './cards.js';
import { envelopeShape } from './envelope.js';
import { nonEmpty, obj, text, type Mode } from './internal/fields.js';

function registerCard(mode: Mode) {
  const card = mode === 'strict' ? RawCardSchema : RawCardLenientSchema;
  return obj(mode, {
    creditCard: card.superRefine((c, ctx) => {
      if (c.cvv === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['cvv'],
          message: 'cvv is required to register a card',
        });
      if (hasAmexPlaceholderCvv(c))
        ctx.addIssue({
          code: 'custom',
          path: ['cvv'],
          message: 'cvv must be a string of 4 digits for amex',
        });
    }),
  });
}
export const RegisterCardRequestSchema = registerCard('strict');
export const RegisterCardRequestLenientSchema = registerCard('lenient');
/** Registering needs the cvv (the schema refuses a card without one), so the type says so too. */
export type RegisterCardRequest = Omit<z.input<typeof RegisterCardRequestSchema>, 'creditCard'> & {
  creditCard: z.input<typeof RegisterCardRequestSchema>['creditCard'] & { cvv: string };
};

export const RegisterCardResponseSchema = z.looseObject({
  ...envelopeShape,
  token: z.string().nullish(),
});
export type RegisterCardResponse = z.infer<typeof RegisterCardResponseSchema>;

/** Card lookup takes exactly one of cardNumber, token, transactionReference. */
function lookupCard(mode: Mode) {
  const one = (key: 'cardNumber' | 'token' | 'transactionReference') =>
    obj(mode, {
      [key]:
        key === 'cardNumber'
          ? text(key).regex(/^\d{12,19}$/, 'cardNumber must be 12 to 19 digits')
          : nonEmpty(key),
    } as Record<typeof key, z.ZodString>);
  return z.union([one('cardNumber'), one('token'), one('transactionReference')]);
}
export const LookupCardRequestSchema = lookupCard('strict');
export const LookupCardRequestLenientSchema = lookupCard('lenient');
export type LookupCardRequest =
  { cardNumber: string } | { token: string } | { transactionReference: string };

export const LookupCardResponseSchema = z.looseObject({
  ...envelopeShape,
  card: MaskedCardSchema.nullish(),
});
export type LookupCardResponse = z.infer<typeof LookupCardResponseSchema>;

function unregisterCard(mode: Mode) {
  return obj(mode, { token: nonEmpty('token') });
}
export const UnregisterCardRequestSchema = unregisterCard('strict');
export const UnregisterCardRequestLenientSchema = unregisterCard('lenient');
export type UnregisterCardRequest = z.input<typeof UnregisterCardRequestSchema>;
export const UnregisterCardResponseSchema = z.looseObject(envelopeShape);
export type UnregisterCardResponse = z.infer<typeof UnregisterCardResponseSchema>;
