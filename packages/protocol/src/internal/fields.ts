import { z } from 'zod';
import { CARD_TYPES, MAX_REFERENCE_LENGTH } from '../constants.js';
import { DAY_PATTERN, ISO_MILLIS_PATTERN, isRealDay } from '../dates.js';

/** Strict: what our client builds. Lenient: what a server accepts from others. */
export type Mode = 'strict' | 'lenient';

/** A request object: unknown keys are an error when strict, dropped when lenient. */
export function obj<S extends z.ZodRawShape>(mode: Mode, shape: S) {
  return mode === 'strict' ? z.strictObject(shape) : z.object(shape);
}

/** An optional request field; the lenient form also treats null as absent. */
export function opt<T extends z.ZodType>(mode: Mode, schema: T): z.ZodOptional<T> {
  if (mode === 'strict') return schema.optional();
  // Typed as the strict form: after parsing, both leave the key absent or undefined.
  return schema
    .nullish()
    .transform((v) => (v === null ? undefined : v)) as unknown as z.ZodOptional<T>;
}

export const text = (field: string) =>
  z.string({ error: (iss) => typeError(field, 'a string', iss.input) });

export const nonEmpty = (field: string) => text(field).min(1, `${field} must not be empty`);

export const integer = (field: string) =>
  z
    .number({ error: (iss) => typeError(field, 'a JSON number', iss.input) })
    .int(`${field} must be an integer`)
    .refine(Number.isSafeInteger, `${field} is too large`);

/** Amounts are integers in cents; a fractional number (100.50) is refused. */
export const cents = (field = 'amount') =>
  z
    .number({ error: (iss) => typeError(field, 'a JSON number of cents', iss.input) })
    .int(`${field} must be an integer number of cents (no fractional part)`)
    .refine(Number.isSafeInteger, `${field} is too large`);

export const positiveCents = (field = 'amount') =>
  cents(field).refine((n) => n > 0, `${field} must be greater than 0`);

export const nonNegativeCents = (field = 'amount') =>
  cents(field).refine((n) => n >= 0, `${field} must not be negative`);

export const bool = (field: string) =>
  z.boolean({ error: (iss) => typeError(field, 'true or false', iss.input) });

/** Merchant references, subscription references, transfer references: 1-99 characters. */
export const reference = (field = 'reference') =>
  nonEmpty(field).max(
    MAX_REFERENCE_LENGTH,
    `${field} must be at most ${MAX_REFERENCE_LENGTH} characters`,
  );

/** Three-letter currency code such as ZAR, USD, EUR (the full list is not published). */
export const currency = (field = 'currency') =>
  text(field).regex(/^[A-Z]{3}$/, `${field} must be a three-letter upper-case currency code`);

export const cardType = (field = 'type') =>
  z.enum(CARD_TYPES, {
    error: (iss) => typeError(field, `one of ${CARD_TYPES.join(', ')}`, iss.input),
  });

export const isoMillis = (field: string) =>
  text(field)
    .regex(ISO_MILLIS_PATTERN, `${field} must have the format yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`)
    .refine(isRealDay, `${field} is not a real date`);

export const day = (field: string) =>
  text(field)
    .regex(DAY_PATTERN, `${field} must have the format yyyy-MM-dd`)
    .refine(isRealDay, `${field} is not a real date`);

export const url = (field: string) =>
  text(field).refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      return false;
    }
  }, `${field} must be an absolute http(s) URL`);

/** "x is required" for a missing field, else "x must be ..., received <type>". */
export function typeError(field: string, expected: string, input: unknown): string {
  if (input === undefined) return `${field} is required`;
  const got = input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input;
  return `${field} must be ${expected}, received ${got}`;
}
