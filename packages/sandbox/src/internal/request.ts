import { check, describeIssues, type AnySchema } from '@pg-checkout/protocol';
import type { Request } from 'express';
import { badRequest, duplicate } from './errors.js';
import { nonIntegerLiterals } from './json-numbers.js';
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
  checkWholeNumbers(req);
  if (schema) checkSchema(schema, reader.raw);
  return reader;
}

/** Integer fields written `100.00` or `1e4` are wrong types, though JSON.parse reads them as integers. */
export function checkWholeNumbers(req: Request): void {
  const raw = (req as Request & { rawJson?: string }).rawJson;
  if (raw === undefined) return;
  const [first] = nonIntegerLiterals(raw);
  if (first) {
    throw badRequest(
      `${first.path} must be an integer JSON number${first.path.endsWith('amount') ? ' of cents' : ''}, without a fractional part or exponent; got ${first.literal}`,
    );
  }
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
  source?: string | undefined;
  displayCurrency?: string | undefined;
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
): { currency: string; amount: number; reference?: string | undefined } {
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

/**
 * One merchant reference is one transaction: a second payment (or refund) with it is refused as a
 * duplicate, whatever became of the first, so a retry of an unknown outcome can never charge twice.
 * The spec does not promise it: with `duplicateReference: 'new-transaction'` a reused one is let through.
 */
export function ensureReferenceFree(
  ctx: Ctx,
  reference: string,
  field = 'transaction.reference',
): void {
  if (ctx.choices.duplicateReference === 'new-transaction') return;
  const existing = ctx.store.byMerchantReference(reference);
  if (existing) {
    throw duplicate(
      `${field} ${reference} was already used by ${existing.kind === 'refund' ? 'refund' : 'payment'} ${existing.reference}`,
      { reference: existing.reference },
    );
  }
}

/**
 * affiliateMerchantId; the spec gives no minimum, and clients that serialize an unset integer send 0,
 * so 0 means "no affiliate" (the payment is the caller's own). Any other unknown id is refused.
 */
export function readAffiliate(ctx: Ctx, r: BodyReader): number | undefined {
  const id = r.int('affiliateMerchantId');
  if (id === undefined || id === 0) return undefined;
  if (!ctx.store.merchants.has(id))
    throw badRequest(`affiliateMerchantId ${id} is not an affiliated merchant`);
  return id;
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
