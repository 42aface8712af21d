import { ListPaymentsRequestLenientSchema } from '@pg-checkout/protocol';
import { Router } from 'express';
import type { Ctx } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { formatIsoMillis, parseIsoMillis } from '../format.js';
import { bodyReader, refParam } from '../request.js';
import type { Status, Txn } from '../types.js';
import { MAX_AMOUNT } from '../validate.js';

const FEE_PERCENT = 2.5;

/**
 * How a record reads in lookups and lists. The spec allows a pending refund as NEW or as SETTLED with
 * a negative amount (both with `pending: true`), and ties `pending` to refunds only.
 */
export function shown(ctx: Ctx, txn: Txn): { status: Status; pending: boolean } {
  if (!txn.pending) return { status: txn.status, pending: false };
  if (ctx.choices.pendingRecords === 'new') return { status: txn.status, pending: true };
  return txn.kind === 'refund'
    ? { status: 'SETTLED', pending: true }
    : { status: txn.status, pending: false };
}

export function lookupRecord(ctx: Ctx, txn: Txn): Record<string, unknown> {
  return {
    success: true,
    reference: txn.reference,
    amount: txn.amount,
    currency: txn.currency,
    ...shown(ctx, txn),
    date: formatIsoMillis(txn.createdAt),
    settlementDate: txn.settlement ? formatIsoMillis(txn.settlement.date) : null,
    settlementId: txn.settlement?.id ?? null,
    settlementAmount: txn.settlement?.amount ?? null,
  };
}

export function fees(txn: Txn): { fees: number; feesVat: number; feesPercentage: number } {
  if (txn.paymentMethod === 'TRANSFER' || txn.amount <= 0)
    return { fees: 0, feesVat: 0, feesPercentage: 0 };
  const f = Math.round((txn.amount * FEE_PERCENT) / 100);
  return { fees: f, feesVat: Math.round(f * 1.15), feesPercentage: FEE_PERCENT };
}

export function details(ctx: Ctx, txn: Txn): Record<string, unknown> {
  return {
    id: txn.id,
    reference: txn.reference,
    currency: txn.currency,
    amount: txn.amount,
    date: formatIsoMillis(txn.createdAt),
    source: txn.source ?? null,
    merchantReference: txn.merchantReference,
    paymentMethod: txn.paymentMethod,
    status: shown(ctx, txn).status,
    message: txn.message ?? null,
    suspended: txn.suspended === true,
    merchant: ctx.store.merchants.get(txn.merchantId)?.name ?? '',
    consumerFirstname: txn.consumer?.name ?? null,
    consumerLastname: txn.consumer?.surname ?? null,
    consumerEmail: txn.consumer?.email ?? null,
    ...fees(txn),
    pending: shown(ctx, txn).pending,
  };
}

const contains = (value: string | undefined, part: string): boolean =>
  value !== undefined && value.toLowerCase().includes(part.toLowerCase());
const same = (value: string | undefined, wanted: string): boolean => value === wanted;

export function lookupRoutes(ctx: Ctx): Router {
  const router = Router();

  router.get('/pg/api/v2/payment/lookup/merchantReference/:merchantReference', (req, res) => {
    const ref = refParam(req, 'merchantReference');
    const txn = ctx.store.byMerchantReference(ref);
    if (!txn) throw notFound(`No transaction with merchant reference ${ref}`);
    res.json(lookupRecord(ctx, txn));
  });

  router.post('/pg/api/v2/payment/list', (req, res) => {
    const r = bodyReader(req, ListPaymentsRequestLenientSchema);
    const merchantReference = r.str('merchantReference', { max: 100 });
    const paymentReference = r.str('paymentReference', { max: 100 });
    const date = (key: string): number | undefined => {
      const v = r.str(key, { max: 40 });
      if (v === undefined) return undefined;
      const t = parseIsoMillis(v);
      if (t === undefined)
        throw badRequest(`${key} must have the format yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`);
      return t;
    };
    const fromDate = date('fromDate');
    const toDate = date('toDate');
    const first = r.str('consumerFirstname', { max: 100 });
    const surname = r.str('consumerSurname', { max: 100 });
    const email = r.str('consumerEmail', { max: 254 });
    const amount = r.int('amount', { min: -MAX_AMOUNT, max: MAX_AMOUNT });
    const merchantId = r.int('merchantId', { min: 1 });
    const exact = ctx.choices.listMatch === 'exact';
    const consumerMatch = exact ? same : contains;
    const status = exact
      ? r.str('status', { max: 20 })
      : r.str('status', { max: 20 })?.toUpperCase();
    const paymentMethod = exact
      ? r.str('paymentMethod', { max: 20 })
      : r.str('paymentMethod', { max: 20 })?.toUpperCase();
    const omitNew = ctx.choices.newInList === 'omitted';

    // All given filters apply together (spec): paymentReference is the service's reference of one
    // transaction, so it answers that transaction alone, never its refunds. It uses the index; the
    // list is not a hot path, the rest is one scan.
    let pool: Iterable<Txn>;
    if (paymentReference !== undefined) {
      const one = ctx.store.get(paymentReference);
      pool = one ? [one] : [];
    } else pool = ctx.store.txns.values();
    const out: Txn[] = [];
    for (const t of pool) {
      const view = shown(ctx, t);
      if (omitNew && t.kind !== 'refund' && view.status === 'NEW') continue;
      if (merchantReference !== undefined && t.merchantReference !== merchantReference) continue;
      if (fromDate !== undefined && t.createdAt < fromDate) continue;
      if (toDate !== undefined && t.createdAt > toDate) continue;
      if (first !== undefined && !consumerMatch(t.consumer?.name, first)) continue;
      if (surname !== undefined && !consumerMatch(t.consumer?.surname, surname)) continue;
      if (email !== undefined && !consumerMatch(t.consumer?.email, email)) continue;
      if (amount !== undefined && t.amount !== amount) continue;
      if (merchantId !== undefined && t.merchantId !== merchantId) continue;
      if (status !== undefined && view.status !== status) continue;
      if (paymentMethod !== undefined && t.paymentMethod !== paymentMethod) continue;
      out.push(t);
    }
    // The most recent matches, in the order the sandbox chose (the spec shows neither).
    const kept = out.slice(-ctx.choices.listLimit);
    if (ctx.choices.listOrder === 'newest-first') kept.reverse();
    const transactions = kept.map((t) => details(ctx, t));
    res.json({ success: true, message: '', code: 1, transactions });
  });

  router.get('/pg/api/v2/payment/:reference', (req, res) => {
    res.json(lookupRecord(ctx, ctx.store.require(refParam(req))));
  });

  return router;
}
