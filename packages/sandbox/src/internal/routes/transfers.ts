import {
  CancelTransferRequestLenientSchema,
  CreateTransferRequestLenientSchema,
} from '@pg-checkout/protocol';
import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import type { Ctx } from '../context.js';
import { badRequest, conflict, duplicate, notFound } from '../errors.js';
import { parseIsoMillis } from '../format.js';
import { bodyReader } from '../request.js';
import { MAIN_MERCHANT_ID } from '../store.js';
import type { Txn } from '../types.js';
import { MAX_AMOUNT, MAX_REFERENCE, type BodyReader } from '../validate.js';
import { details } from './lookups.js';

const DAY = 24 * 60 * 60 * 1000;
const OUTSTANDING_WINDOW = 90 * DAY;

/** ZAR transfers between affiliated merchants, executed on their transfer date by the sandbox clock. */
export function transferRoutes(ctx: Ctx): Router {
  const router = Router();
  const groups = new Map<string, Txn[]>();
  const outstanding = new Set<Txn>();

  const readDate = (r: BodyReader): number | undefined => {
    const v = r.str('transferDate', { max: 40 });
    if (v === undefined) return undefined;
    const t = parseIsoMillis(v);
    if (t === undefined)
      throw badRequest(
        `${r.name('transferDate')} must have the format yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`,
      );
    if (t <= ctx.clock.now()) throw badRequest(`${r.name('transferDate')} must be in the future`);
    return t;
  };

  const readSide = (r: BodyReader, requireId: boolean) => {
    const merchantId = r.int('merchantId', { required: requireId, min: 1 }) ?? MAIN_MERCHANT_ID;
    if (!ctx.store.merchants.has(merchantId))
      throw badRequest(`${r.name('merchantId')} ${merchantId} is not an affiliated merchant`);
    const currency = r.reqStr('currency', { pattern: /^[A-Z]{3}$/, hint: 'a three-letter code' });
    if (currency !== 'ZAR') {
      throw badRequest(
        `${r.name('currency')} ${currency}: transfers here are ZAR only; use v3 create or redirect create for forex`,
      );
    }
    return {
      merchantId,
      merchantReference: r.reqStr('merchantReference', { max: MAX_REFERENCE }),
      currency,
      amount: r.reqInt('amount', { min: 1, max: MAX_AMOUNT }),
      transferDate: readDate(r),
      source: r.str('source', { max: 255 }),
    };
  };

  router.post('/pg/api/v2/transfer/create', (req, res) => {
    const r = bodyReader(req, CreateTransferRequestLenientSchema);
    const reference = r.reqStr('reference', { max: MAX_REFERENCE });
    const from = readSide(r.reqObj('fromMerchant'), false);
    const to = r
      .objArray('toMerchants', { required: true, max: 50 })!
      .map((m) => readSide(m, true));
    if (to.length === 0) throw badRequest('toMerchants must not be empty');
    const total = to.reduce((s, m) => s + m.amount, 0);
    if (total !== from.amount)
      throw badRequest(
        `toMerchants amounts total ${total} but fromMerchant.amount is ${from.amount}`,
      );
    if (to.some((m) => m.merchantId === from.merchantId))
      throw badRequest('A merchant cannot transfer to itself');
    if (groups.has(reference)) throw duplicate(`Transfer reference ${reference} was already used`);
    const now = ctx.clock.now();
    const txns = to.map((m) => {
      const t = ctx.store.add({
        kind: 'transfer',
        status: 'NEW',
        merchantReference: m.merchantReference,
        amount: m.amount,
        currency: m.currency,
        now,
        merchantId: m.merchantId,
        paymentMethod: 'TRANSFER',
      });
      t.suspended = true;
      t.fromMerchantId = from.merchantId;
      t.transferDate = m.transferDate ?? from.transferDate ?? now + DAY;
      if (m.source ?? from.source) t.source = m.source ?? from.source;
      t.parent = reference;
      outstanding.add(t);
      ctx.clock.schedule(t.transferDate, () => {
        if (t.status !== 'NEW') return;
        t.status = 'SETTLED';
        t.settled = t.amount;
        t.suspended = false;
        t.updatedAt = ctx.clock.now();
        outstanding.delete(t);
      });
      return t;
    });
    groups.set(reference, txns);
    res.json({
      success: true,
      message: 'Transfers created',
      code: 1,
      fromMerchantId: from.merchantId,
      transfers: txns.map((t) => ({
        merchantId: t.merchantId,
        merchantReference: t.merchantReference,
        currency: t.currency,
        amount: t.amount,
        transferDate: t.transferDate,
        source: t.source ?? null,
        reference: t.reference,
      })),
    });
  });

  router.post('/pg/api/v2/transfer/cancel', (req, res) => {
    const reference = bodyReader(req, CancelTransferRequestLenientSchema).reqStr('reference', {
      max: 100,
    });
    const single = ctx.store.get(reference);
    const targets = single?.kind === 'transfer' ? [single] : groups.get(reference);
    if (!targets) throw notFound(`No transfer with reference ${reference}`);
    const now = ctx.clock.now();
    const late = targets.find((t) => t.status !== 'NEW' || (t.transferDate ?? 0) <= now);
    if (late)
      throw conflict(
        `Transfer ${late.reference} is ${late.status}; only a transfer before its date can be cancelled`,
      );
    for (const t of targets) {
      t.status = 'CANCELLED';
      t.suspended = false;
      t.updatedAt = now;
      outstanding.delete(t);
    }
    res.json({
      success: true,
      message: 'Transfer cancelled',
      reference: `C${randomBytes(6).toString('hex').toUpperCase()}`,
      code: 1,
    });
  });

  router.get('/pg/api/v2/transfer/merchants/get', (_req, res) => {
    const merchants = [...ctx.store.merchants.values()]
      .filter((m) => m.id !== MAIN_MERCHANT_ID)
      .map((m) => ({ ...m, settings: {} }));
    res.json({ success: true, message: '', merchants, code: 1 });
  });

  router.get('/pg/api/v2/transfer/list/get', (_req, res) => {
    const now = ctx.clock.now();
    const transactions = [...outstanding]
      .filter((t) => t.status === 'NEW' && (t.transferDate ?? 0) <= now + OUTSTANDING_WINDOW)
      .map((t) => details(ctx, t));
    res.json({ success: true, message: '', transactions, code: 1 });
  });

  return router;
}
