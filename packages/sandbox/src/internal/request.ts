import { check, describeIssues, type AnySchema } from '@pg-checkout/protocol';
import type { Request } from 'express';
import { badRequest, conflict } from './errors.js';
import type { Ctx } from './context.js';
import { BodyReader, CURRENCY, MAX_AMOUNT, MAX_REFERENCE } from './validate.js';

/** The parsed JSON body the signature middleware left on the request. */
export function jsonBody(req: Request): unknown {
  return (req as Request & { json?: unknown }).json;
}

/**
 * The body as a lenient reader; with a schema, protocol's lenient request schema checks it first
 * (unknown keys dropped, nulls as absent, wrong types refused with the field's path).
 */
export function bodyReader(req: Request, schema?: AnySchema): BodyReader {
  const reader = BodyReader.from(jsonBody(req));
  if (schema) checkSchema(schema, reader.raw);
  return reader;
}

export function checkSchema(schema: AnySchema, value: unknown): void {
  const result = check(schema, value);
  if (!result.success) throw badRequest(describeIssues(result.issues));
}

/** Reference path parameter, with the same length limit as the references it names. */
export function refParam(req: Request, name = 'reference'): string {
  const value = req.params[name];
  if (typeof value !== 'string' || value === '')
    throw badRequest(`${name} is missing from the path`);
  if (value.length > MAX_REFERENCE + 1)
    throw badRequest(`${name} is longer than ${MAX_REFERENCE + 1} characters`);
  return value;
}

export interface TransactionInput {
  reference: string;
  currency: string;
  amount: number;
  source?: string;
  displayCurrency?: string;
}

export function readTransaction(
  r: BodyReader,
  opts: { minAmount?: number } = {},
): TransactionInput {
  return {
    reference: r.reqStr('reference', { max: MAX_REFERENCE }),
    currency: r.reqStr('currency', {
      pattern: CURRENCY,
      hint: 'a three-letter upper-case code such as ZAR',
    }),
    amount: r.reqInt('amount', { min: opts.minAmount ?? 1, max: MAX_AMOUNT }),
    source: r.str('source', { max: 255 }),
    displayCurrency: r.str('displayCurrency', {
      pattern: CURRENCY,
      hint: 'a three-letter upper-case code',
    }),
  };
}

/** `{transaction: {currency, amount}}` of execute and refund; reference only where refunds take one. */
export function readAmountBody(
  r: BodyReader,
  min: number,
): { currency: string; amount: number; reference?: string } {
  const t = r.reqObj('transaction');
  return {
    currency: t.reqStr('currency', {
      pattern: CURRENCY,
      hint: 'a three-letter upper-case code such as ZAR',
    }),
    amount: t.reqInt('amount', { min, max: MAX_AMOUNT }),
    reference: t.str('reference', { max: MAX_REFERENCE }),
  };
}

const MONEY_MOVED = new Set(['AUTHORIZED', 'SETTLED', 'REFUNDED', 'REVERSED']);

/** A merchant reference may be reused after a failed or abandoned attempt, never after money moved. */
export function ensureReferenceFree(ctx: Ctx, reference: string): void {
  const existing = ctx.store.byMerchantReference(reference);
  if (existing && existing.kind !== 'refund' && MONEY_MOVED.has(existing.status)) {
    throw conflict(
      `transaction.reference ${reference} was already used by payment ${existing.reference}`,
      {
        reference: existing.reference,
      },
    );
  }
}

/** Conversion rates to one unit of USD, fixed so tests can predict displayCurrency amounts. */
export const RATES: Readonly<Record<string, number>> = {
  USD: 1,
  EUR: 0.92,
  GBP: 0.79,
  ZAR: 18.2,
  KES: 129,
  NGN: 1550,
};

/** Units of `to` per unit of `from`. */
export function exchangeRate(from: string, to: string): number | undefined {
  const a = RATES[from];
  const b = RATES[to];
  return a === undefined || b === undefined ? undefined : b / a;
}
