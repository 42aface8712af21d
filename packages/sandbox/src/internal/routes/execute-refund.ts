import {
  ExecuteRequestLenientSchema,
  RefundMultipleRequestLenientSchema,
  RefundRequestLenientSchema,
} from '@pg-checkout/protocol';
import { Router } from 'express';
import type { Ctx } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import { logError } from '../logger.js';
import { execute, refund } from '../money.js';
import { bodyReader, checkSchema, readAmountBody, refParam } from '../request.js';
import { requireKind } from './payments.js';

const V2 = '/pg/api/v2/payment';

/** v2 execute, refund and refund multiple. */
export function executeRefundRoutes(ctx: Ctx): Router {
  const router = Router();

  router.get(`${V2}/:reference/execute`, (req, res) => {
    const txn = ctx.store.require(refParam(req));
    requireKind(txn, 2);
    res.json(execute(ctx, txn));
  });

  router.post(`${V2}/:reference/execute`, (req, res) => {
    const txn = ctx.store.require(refParam(req));
    requireKind(txn, 2);
    const { currency, amount } = readAmountBody(bodyReader(req, ExecuteRequestLenientSchema), 0);
    if (currency !== txn.currency)
      throw badRequest(`transaction.currency ${currency} is not the payment's ${txn.currency}`);
    res.json(execute(ctx, txn, amount));
  });

  router.get(`${V2}/:reference/refund`, (req, res) => {
    const txn = ctx.store.require(refParam(req));
    requireKind(txn, 2);
    const out = refund(ctx, txn, undefined);
    res.status(out.status).json(out.body);
  });

  router.post(`${V2}/:reference/refund`, (req, res) => {
    const txn = ctx.store.require(refParam(req));
    requireKind(txn, 2);
    const body = readAmountBody(bodyReader(req, RefundRequestLenientSchema), 1);
    if (body.currency !== txn.currency) {
      throw badRequest(
        `transaction.currency ${body.currency} is not the payment's ${txn.currency}`,
      );
    }
    const out = refund(ctx, txn, body.amount, body.reference);
    res.status(out.status).json(out.body);
  });

  router.post(`${V2}/refund/multiple`, (req, res) => {
    const r = bodyReader(req);
    const synchronous = r.bool('synchronous') ?? false;
    const items = r.objArray('transactions', { max: 1000 });
    if (!items || items.length === 0) {
      throw new ApiError(400, 'No transactions given to refund', -1, { synchronous });
    }
    checkSchema(RefundMultipleRequestLenientSchema, r.raw);
    const run = (): Record<string, unknown>[] =>
      items.map((item) => {
        const serviceReference =
          typeof item.raw.serviceReference === 'string' ? item.raw.serviceReference : undefined;
        const reference = typeof item.raw.reference === 'string' ? item.raw.reference : undefined;
        try {
          const ref = item.reqStr('serviceReference', { max: 100 });
          const merchantRef = item.str('reference', { max: 99 });
          const currency = item.reqStr('currency', {
            pattern: /^[A-Z]{3}$/,
            hint: 'a three-letter code',
          });
          const amount = item.reqInt('amount', { min: 1 });
          const txn = ctx.store.require(ref);
          if (txn.kind === 'refund' || txn.kind === 'transfer')
            throw badRequest(`${ref} is not a payment`);
          if (currency !== txn.currency)
            throw badRequest(`currency ${currency} is not the payment's ${txn.currency}`);
          const out = refund(ctx, txn, amount, merchantRef);
          const b = out.body;
          return b.success
            ? { success: true, serviceReference: ref, reference: merchantRef ?? null }
            : {
                success: false,
                serviceReference: ref,
                reference: merchantRef ?? null,
                message: b.message,
                originalErrorCode: b.originalErrorCode,
                code: b.code,
              };
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          return {
            success: false,
            serviceReference: serviceReference ?? null,
            reference: reference ?? null,
            message: err.message,
            originalErrorCode: (err.extra.originalErrorCode as string | undefined) ?? '',
            code: err.code,
          };
        }
      });
    if (!synchronous) {
      // Asynchronous: answer at once and refund in the background, as the spec describes.
      setImmediate(() => {
        try {
          run();
        } catch (err) {
          logError(
            ctx.logger,
            `background refund failed: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      });
      return res.json({
        success: true,
        message: 'Refunds received and will be processed',
        synchronous: false,
      });
    }
    const transactions = run();
    const all = transactions.every((t) => t.success === true);
    // success says the request was processed; each item carries its own outcome.
    return res.json({
      success: true,
      message: all ? 'All refunds processed' : 'Some refunds were not processed; see transactions',
      synchronous: true,
      transactions,
    });
  });

  return router;
}
