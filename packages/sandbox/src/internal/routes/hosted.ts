import {
  AddForeignTransferRequestLenientSchema,
  CreateEftRequestLenientSchema,
  CreateForeignPaymentRequestLenientSchema,
  CreateRedirectRequestLenientSchema,
  EditForeignPaymentRequestLenientSchema,
  ExecuteRequestLenientSchema,
  RefundRequestLenientSchema,
} from '@pg-checkout/protocol';
import { Router, type Request } from 'express';
import { baseUrl, type Ctx } from '../context.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { formatDay, formatIsoMillis } from '../format.js';
import {
  readConsumer,
  readPreparedTransfer,
  readTransactionDay,
  readTravel,
  readUrls,
} from '../hosted-input.js';
import { execute, refund } from '../money.js';
import {
  bodyReader,
  ensureReferenceFree,
  exchangeRate,
  checkSchema,
  readAffiliate,
  readAmountBody,
  readTransaction,
  refParam,
} from '../request.js';
import type { HostedInfo, Kind, Txn } from '../types.js';
import type { BodyReader } from '../validate.js';
import { requireKind } from './payments.js';

const V3 = '/pg/api/v3/payment';
const HOLD_MS = 7 * 24 * 60 * 60 * 1000;

/** Records a hosted payment (v3, redirect, EFT) in NEW; the sandbox page at redirectUrl completes it. */
function createHosted(
  ctx: Ctx,
  req: Request,
  r: BodyReader,
  kind: Kind,
  info: HostedInfo,
): { txn: Txn; redirectUrl: string } {
  const tx = readTransaction(r.reqObj('transaction'));
  let amount = tx.amount;
  if (tx.displayCurrency && tx.displayCurrency !== tx.currency) {
    const rate = exchangeRate(tx.currency, tx.displayCurrency);
    if (rate === undefined)
      throw badRequest(
        `transaction.displayCurrency ${tx.displayCurrency} has no sandbox exchange rate`,
      );
    // The spec: the amount is in the display currency, divided by the rate to get the charged amount.
    amount = Math.max(1, Math.round(tx.amount / rate));
  }
  const affiliateMerchantId = readAffiliate(ctx, r);
  const transferReader = r.obj('transfer');
  if (transferReader)
    info.transfer = readPreparedTransfer(ctx, transferReader, amount, tx.currency);
  const consumer = readConsumer(r.obj('consumer'), {
    address: kind === 'redirect' && tx.currency !== 'ZAR',
    mobile: kind === 'redirect' && tx.currency === 'KES',
  });
  ensureReferenceFree(ctx, tx.reference);
  const txn = ctx.store.add({
    kind,
    status: 'NEW',
    merchantReference: tx.reference,
    amount,
    currency: tx.currency,
    now: ctx.clock.now(),
    merchantId: affiliateMerchantId,
    paymentMethod: kind === 'eft' ? 'EFT' : 'CC',
    claimsReference: true,
  });
  if (tx.displayCurrency) txn.displayCurrency = tx.displayCurrency;
  if (tx.source) txn.source = tx.source;
  if (consumer) txn.consumer = consumer;
  txn.hosted = info;
  if (info.hold) {
    ctx.clock.schedule(ctx.clock.now() + HOLD_MS, () => {
      if (txn.status === 'AUTHORIZED') {
        txn.status = 'REVERSED';
        txn.updatedAt = ctx.clock.now();
        txn.message = 'Hold expired and was reversed';
      }
    });
  }
  const key = info.pageUrlKey ? `${encodeURIComponent(info.pageUrlKey)}/` : '';
  return { txn, redirectUrl: `${baseUrl(ctx, req)}/pay/${key}${txn.reference}` };
}

function missingUrls(): ApiError {
  return new ApiError(400, 'urls with success, cancel and error addresses are required', 3, {
    originalErrorCode: '',
  });
}

function noPaymentPage(key?: string): ApiError {
  return new ApiError(
    404,
    key
      ? `No payment page is set up for pageUrlKey ${key}`
      : 'No payment page is set up for this merchant',
    19,
    {
      originalErrorCode: '',
    },
  );
}

/** v3 edits are allowed only up to the day before the transaction date. */
function beforeExecutionDay(ctx: Ctx, txn: Txn): void {
  const day = txn.hosted?.transactionDay ?? formatDay(txn.createdAt);
  if (formatDay(ctx.clock.now()) >= day) {
    throw new ApiError(409, `Changes are not allowed on or after the execution day (${day})`, 1, {
      reference: txn.reference,
    });
  }
}

export function hostedRoutes(ctx: Ctx): Router {
  const router = Router();

  router.post(`${V3}/create`, (req, res) => {
    const r = bodyReader(req);
    const urls = readUrls(r.obj('urls'));
    if (!urls) throw missingUrls();
    checkSchema(CreateForeignPaymentRequestLenientSchema, r.raw);
    if (!ctx.settings.paymentPageEnabled) throw noPaymentPage();
    const info: HostedInfo = {
      urls,
      authorize: r.bool('authorize') ?? false,
      hold: false,
      threeDSecure: r.bool('threeDSecure'),
      allowMultiCurrencyPurchase: r.bool('allowMultiCurrencyPurchase') ?? false,
      transactionDay: readTransactionDay(ctx, r),
    };
    readTravel(r, info);
    const { txn, redirectUrl } = createHosted(ctx, req, r, 'foreign', info);
    res.json({
      success: true,
      reference: txn.reference,
      code: 1,
      message: 'Redirect the consumer to redirectUrl',
      redirectUrl,
    });
  });

  router.get(`${V3}/:reference/execute`, (req, res) => {
    const txn = ctx.store.require(refParam(req));
    requireKind(txn, 3);
    res.json(execute(ctx, txn));
  });

  router.post(`${V3}/:reference/execute`, (req, res) => {
    const txn = ctx.store.require(refParam(req));
    requireKind(txn, 3);
    const { currency, amount } = readAmountBody(bodyReader(req, ExecuteRequestLenientSchema), 0);
    if (currency !== txn.currency)
      throw badRequest(`transaction.currency ${currency} is not the payment's ${txn.currency}`);
    res.json(execute(ctx, txn, amount));
  });

  router.get(`${V3}/:reference/refund`, (req, res) => {
    const txn = ctx.store.require(refParam(req));
    requireKind(txn, 3);
    const out = refund(ctx, txn, undefined);
    res.status(out.status).json(out.body);
  });

  router.post(`${V3}/:reference/refund`, (req, res) => {
    const txn = ctx.store.require(refParam(req));
    requireKind(txn, 3);
    const body = readAmountBody(bodyReader(req, RefundRequestLenientSchema), 1);
    if (body.currency !== txn.currency)
      throw badRequest(
        `transaction.currency ${body.currency} is not the payment's ${txn.currency}`,
      );
    const out = refund(ctx, txn, body.amount, body.reference);
    res.status(out.status).json(out.body);
  });

  router.post(`${V3}/:reference/edit`, (req, res) => {
    const txn = ctx.store.require(refParam(req));
    requireKind(txn, 3);
    const r = bodyReader(req, EditForeignPaymentRequestLenientSchema);
    beforeExecutionDay(ctx, txn);
    const info = txn.hosted!;
    const consumer = readConsumer(r.obj('consumer'));
    const transferReader = r.obj('transfer');
    const transfer = transferReader
      ? readPreparedTransfer(ctx, transferReader, txn.amount, txn.currency)
      : undefined;
    const day = r.has('transactionDate') ? readTransactionDay(ctx, r) : undefined;
    const probe: HostedInfo = { ...info };
    readTravel(r, probe);
    if (consumer) txn.consumer = { ...txn.consumer, ...consumer };
    if (r.has('description')) info.description = probe.description;
    if (r.has('destinationCountry')) info.destinationCountry = probe.destinationCountry;
    if (r.has('pax')) info.pax = probe.pax;
    if (day) info.transactionDay = day;
    if (transfer) info.transfer = transfer;
    txn.updatedAt = ctx.clock.now();
    res.json({ success: true, reference: txn.reference, message: 'Payment updated' });
  });

  router.post(`${V3}/:reference/transfer/create`, (req, res) => {
    const txn = ctx.store.require(refParam(req));
    requireKind(txn, 3);
    const r = bodyReader(req, AddForeignTransferRequestLenientSchema);
    beforeExecutionDay(ctx, txn);
    const info = txn.hosted!;
    const existing = info.transfer?.toMerchants ?? [];
    const added = readPreparedTransfer(
      ctx,
      r.reqObj('transfer'),
      txn.amount,
      txn.currency,
      existing,
    );
    info.transfer = {
      fromReference: info.transfer?.fromReference ?? added.fromReference,
      toMerchants: [...existing, ...added.toMerchants],
    };
    res.json({ success: true, reference: txn.reference, message: 'Transfer added' });
  });

  router.get(`${V3}/:reference/transfer/cancel`, (req, res) => {
    const txn = ctx.store.require(refParam(req));
    requireKind(txn, 3);
    beforeExecutionDay(ctx, txn);
    const info = txn.hosted!;
    if (!info.transfer || info.transfer.toMerchants.length === 0) {
      throw new ApiError(409, 'No transfers are linked to this payment', 1, {
        reference: txn.reference,
      });
    }
    info.transfer = undefined;
    res.json({ success: true, reference: txn.reference, message: 'Transfers cancelled' });
  });

  router.post('/pg/api/v2/redirect/create', (req, res) => {
    const r = bodyReader(req);
    const urls = readUrls(r.obj('urls'));
    if (!urls) throw missingUrls();
    checkSchema(CreateRedirectRequestLenientSchema, r.raw);
    const pageUrlKey = r.str('pageUrlKey', { max: 100 });
    if (pageUrlKey !== undefined && !ctx.settings.pageUrlKeys.includes(pageUrlKey))
      throw noPaymentPage(pageUrlKey);
    if (!ctx.settings.paymentPageEnabled) throw noPaymentPage();
    const hold = r.bool('hold') ?? false;
    const info: HostedInfo = {
      urls,
      authorize: (r.bool('auth') ?? false) || hold,
      hold,
      threeDSecure: r.bool('threeDSecure'),
      recurring: r.bool('recurring') ?? false,
      pageUrlKey,
      transactionDay: readTransactionDay(ctx, r),
    };
    readTravel(r, info);
    const { txn, redirectUrl } = createHosted(ctx, req, r, 'redirect', info);
    res.json({ success: true, redirectUrl, reference: txn.reference });
  });

  router.post('/pg/api/v2/payment/create/eft', (req, res) => {
    const r = bodyReader(req);
    const urls = readUrls(r.obj('urls'));
    if (!urls) throw missingUrls();
    checkSchema(CreateEftRequestLenientSchema, r.raw);
    const tx = r.reqObj('transaction');
    if (tx.raw.currency !== undefined && tx.raw.currency !== 'ZAR') {
      throw badRequest('transaction.currency must be ZAR: instant EFT is for South African banks');
    }
    r.reqObj('consumer');
    const info: HostedInfo = { urls, authorize: false, hold: false };
    const { txn, redirectUrl } = createHosted(ctx, req, r, 'eft', info);
    res.json({ success: true, reference: txn.reference, redirectUrl });
  });

  router.get('/pg/api/v2/redirect/:reference', (req, res) => {
    const reference = refParam(req);
    const txn = ctx.store.get(reference);
    if (!txn || !txn.hosted) throw notFound(`No redirect payment with reference ${reference}`);
    res.json({
      success: true,
      reference: txn.reference,
      amount: txn.amount,
      currency: txn.currency,
      status: txn.status,
      date: formatIsoMillis(txn.createdAt),
    });
  });

  return router;
}
