import type {
  CardDetails,
  PaymentRequest,
  RedirectRequest,
  SaveCardRequest,
} from '@pg-checkout/protocol/browser';
import { CARD_TYPES } from '@pg-checkout/protocol/vocabulary';
import { z } from 'zod';
import { CheckoutError } from '../errors.js';
import { ConsumerSchema } from '../setup/order-schema.js';

const digits = (min: number, max: number) =>
  z
    .string()
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(new RegExp(`^\\d{${min},${max}}$`), `must be ${min} to ${max} digits`));

/**
 * The card details the browser sends (`CardDetails`), as the payment and save-card bodies carry them:
 * read leniently (spaces and dashes in the number dropped), into exactly that shape. Not the gateway's
 * wire format: that is the protocol's `RawCardSchema`.
 */
export const CardDetailsBody = z.object({
  number: digits(12, 19),
  cardHolder: z.string().trim().min(1, 'is required').max(100),
  expiryMonth: z.number().int().min(1).max(12),
  expiryYear: z.number().int().min(2000).max(2100),
  cvv: z.string().regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
  type: z.enum(CARD_TYPES),
}) satisfies z.ZodType<CardDetails, unknown>;

export const TokenCardSchema = z.strictObject({ token: z.string().min(1).max(200) });

/** The total the page showed on Pay: checked against the order, never charged from. */
const ShownSchema = z.object({
  amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter currency code'),
});

// Unknown keys (amount, currency, reference...) are dropped: the browser never sets money.
export const CreatePaymentBody = z.object({
  card: z.union([TokenCardSchema, CardDetailsBody], {
    error: 'must be card details or a saved-card token',
  }),
  screenWidth: z.number().int().min(1).max(100_000),
  screenHeight: z.number().int().min(1).max(100_000),
  saveCard: z.boolean().optional(),
  shown: ShownSchema.optional(),
});

export type CreatePaymentCommand = z.infer<typeof CreatePaymentBody>;

export const RedirectBody = z.object({
  consumer: ConsumerSchema.optional(),
  shown: ShownSchema.optional(),
});
export type RedirectCommand = z.infer<typeof RedirectBody>;

export const AddCardBody = z.object({ card: CardDetailsBody });

/** Holds only when `Body` is a body the schema accepts. */
type Accepts<Schema extends z.ZodType, Body extends z.input<Schema>> = Body;
/** The browser's bodies (`@pg-checkout/protocol/browser`) are ones these schemas read: a drift does not compile. */
export type BrowserBodies = [
  Accepts<typeof CreatePaymentBody, PaymentRequest>,
  Accepts<typeof RedirectBody, RedirectRequest>,
  Accepts<typeof AddCardBody, SaveCardRequest>,
];

/** Parses the browser's body or throws `invalid_request` naming the field (never echoing its value). */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length ? issue.path.join('.') : 'body';
  throw new CheckoutError('invalid_request', `Invalid ${field}: ${issue.message}.`);
}
