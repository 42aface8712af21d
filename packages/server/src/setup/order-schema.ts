import { z } from 'zod';
import type { CheckoutOrder } from '../options.js';

const text = (max: number) => z.string().trim().min(1).max(max);

export const ConsumerSchema = z.object({
  name: text(100).optional(),
  surname: text(100).optional(),
  email: z.email().max(200).optional(),
  mobile: z
    .string()
    .regex(/^\+?\d{6,20}$/, 'must be an international phone number')
    .optional(),
  consumerAddress: z
    .object({
      addressLineOne: text(200).optional(),
      city: text(100).optional(),
      postCode: text(20).optional(),
      country: z
        .string()
        .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code')
        .optional(),
    })
    .optional(),
});

const OrderSchema = z.object({
  amount: z.number().int().positive(),
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter currency code'),
  reference: z
    .string()
    .min(1)
    .max(80)
    .regex(/^[A-Za-z0-9._:-]+$/, 'may use letters, digits and . _ : - only'),
  subscription: z
    .object({
      reference: z.string().min(1).max(99),
      interval: z.string().optional(),
      trialDays: z.number().int().min(0).optional(),
      firstname: z.string().optional(),
      lastname: z.string().optional(),
      email: z.string().optional(),
    })
    .optional(),
  affiliateMerchantId: z.number().int().positive().optional(),
  consumer: ConsumerSchema.optional(),
});

/** Checks what the merchant's `resolveOrder` returned; a broken order is the merchant's bug, not the shopper's. */
export function parseOrder(order: unknown): CheckoutOrder {
  const parsed = OrderSchema.safeParse(order);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(
    `resolveOrder returned an invalid order: ${issue.path.join('.') || 'order'} ${issue.message}`,
  );
}
