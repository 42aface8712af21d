import {
  ConfirmRequestLenientSchema,
  CreatePaymentRequestLenientSchema,
  Step2ConfirmRequestLenientSchema,
} from '@pg-checkout/protocol';
import { Router, type Response } from 'express';
import { readCardInput, DECLINES, type Decline } from '../card-input.js';
import { baseUrl, type Ctx } from '../context.js';
import { badRequest, conflict } from '../errors.js';
import { formatTransactionDate } from '../format.js';
import { approve, fail } from '../money.js';
import {
  bodyReader,
  ensureReferenceFree,
  readAffiliate,
  readTransaction,
  refParam,
} from '../request.js';
import { transition } from '../state-machine.js';
import {
  activateSubscription,
  failSubscription,
  openSubscription,
  readSubscription,
} from '../subscriptions.js';
import {
  startThreeDS,
  step2Shape,
  step3Shape,
  toChallenge,
  v1Shape,
  verifyResult,
} from '../three-ds.js';
import type { Txn } from '../types.js';
import { readUrl } from '../validate.js';

const V2 = '/pg/api/v2/payment';

function envelope(ctx: Ctx, txn: Txn): { reference: string; transactionDate: string } {
  return { reference: txn.reference, transactionDate: formatTransactionDate(ctx.clock.now()) };
}

/** Declines are answers, not request errors: HTTP 200 with success false, as the gateway does. */
function sendDecline(ctx: Ctx, res: Response, txn: Txn, decline: Decline, code = -1): void {
  if (txn.status !== 'FAILED') fail(ctx, txn, decline.message);
  failSubscription(ctx, txn);
  res.json({
    success: false,
    message: decline.message,
    originalErrorCode: decline.originalErrorCode,
    code,
    ...envelope(ctx, txn),
  });
}

function onApproved(ctx: Ctx, txn: Txn): void {
  if (txn.recurring && txn.card && !txn.card.firstRecurringRef)
    txn.card.firstRecurringRef = txn.reference;
  activateSubscription(ctx, txn);
}

/** Payments made through the v3 or hosted endpoints are refused on the v2 card endpoints, and the reverse. */
export function requireKind(txn: Txn, api: 2 | 3): void {
  if (txn.kind === 'refund' || txn.kind === 'transfer') {
    throw badRequest(`${txn.reference} is a ${txn.kind}, not a payment`);
  }
  if (api === 3 && txn.kind !== 'foreign') {
    throw badRequest(
      `Payment ${txn.reference} was not created with /pg/api/v3/payment/create; use the v2 endpoint`,
    );
  }
  if (api === 2 && txn.kind === 'foreign') {
    throw badRequest(`Payment ${txn.reference} is a v3 payment; use the /pg/api/v3 endpoint`);
  }
}

export function paymentRoutes(ctx: Ctx): Router {
  const router = Router();

  router.post(`${V2}/create`, (req, res) => {
    const r = bodyReader(req, CreatePaymentRequestLenientSchema);
    const tx = readTransaction(r.reqObj('transaction'));
    if (tx.currency !== 'ZAR') {
      throw badRequest(
        `transaction.currency ${tx.currency}: card payments here are ZAR only; use /pg/api/v3/payment/create`,
      );
    }
    const supportsV2 = r.bool('supports3dsV2') === true;
    const forced = r.bool('threeDSecure') === true;
    const autoExecute = r.bool('autoExecute') ?? false;
    const callbackUrl = readUrl(r, 'callbackUrl');
    const clientIp = r.str('clientIp', { max: 64 });
    const screenWidth = r.numeric('screenWidth');
    const screenHeight = r.numeric('screenHeight');
    const recurring = r.bool('recurring') === true;
    const initialRef = r.str('initialRef', { max: 100 });
    const affiliateMerchantId = readAffiliate(ctx, r);
    const subReader = r.obj('subscription');
    const subscription = subReader ? readSubscription(ctx, subReader) : undefined;
    const input = readCardInput(ctx, r.reqObj('creditCard'), { cvvOptional: true });
    const card = input.card;

    let subsequent = false;
    if (recurring) {
      if (initialRef !== undefined) {
        const initial = ctx.store.require(initialRef, 'initial recurring transaction');
        if (!initial.recurring || initial.card?.panKey !== card.panKey) {
          throw badRequest(
            `initialRef ${initialRef} is not a recurring payment made with this card`,
          );
        }
        subsequent = true;
      } else {
        // A recurring hosted payment was itself the first recurring payment of its card.
        subsequent = card.firstRecurringRef !== undefined || input.via === 'paymentReference';
      }
      if (!subsequent && (input.cvv === undefined || input.cvv === '000')) {
        throw badRequest('creditCard.cvv is required on the first recurring payment');
      }
    } else if (input.via === 'raw' && input.cvv === undefined) {
      throw badRequest('creditCard.cvv is required');
    }
    // Merchant-initiated subsequent recurring payments have no browser to describe.
    if (
      !subsequent &&
      card.type === 'visa' &&
      (!clientIp || screenWidth === undefined || screenHeight === undefined)
    ) {
      throw badRequest('clientIp, screenWidth and screenHeight are required for Visa cards');
    }

    // Decide the 3-D Secure path before recording anything, so request errors leave no trace.
    const b = card.behaviour;
    const wantsV2 = b.startsWith('v2-');
    let version: 0 | 1 | 2 = 0;
    if (!input.decline && !subsequent) {
      if (b === 'v1') version = 1;
      else if (wantsV2) version = supportsV2 ? 2 : 1;
      else if (forced && b === 'approve') version = supportsV2 && callbackUrl ? 2 : 1;
    }
    if (version === 2 && !callbackUrl)
      throw badRequest('callbackUrl is required for 3-D Secure V2');
    ensureReferenceFree(ctx, tx.reference);

    const now = ctx.clock.now();
    const txn = ctx.store.add({
      kind: 'card',
      status: 'NEW',
      merchantReference: tx.reference,
      amount: tx.amount,
      currency: tx.currency,
      now,
      merchantId: affiliateMerchantId,
      claimsReference: true,
    });
    txn.card = card;
    txn.autoExecute = autoExecute;
    if (tx.source) txn.source = tx.source;
    if (recurring) txn.recurring = true;
    if (subscription) openSubscription(ctx, subscription, txn, card);

    if (input.decline) return sendDecline(ctx, res, txn, input.decline);
    if (b === 'decline' && version === 0) return sendDecline(ctx, res, txn, DECLINES.doNotHonour);
    if (b === 'insufficient-funds' && version === 0)
      return sendDecline(ctx, res, txn, DECLINES.insufficientFunds);
    if (version === 0) {
      approve(ctx, txn, autoExecute);
      onApproved(ctx, txn);
      return res.json({ success: true, message: 'Approved', code: 1, ...envelope(ctx, txn) });
    }
    transition(txn, 'THREE_D_SECURE', now);
    const base = baseUrl(ctx, req);
    if (version === 1) {
      const state = startThreeDS(ctx, txn, 1, 'challenge');
      return res.json({
        success: true,
        message: '3-D Secure authentication required',
        code: 2,
        ...envelope(ctx, txn),
        threeDSecure: v1Shape(base, state),
      });
    }
    const atOnce =
      b === 'v2-challenge' || b === 'v2-challenge-then-decline' || (forced && !wantsV2);
    const state = startThreeDS(ctx, txn, 2, atOnce ? 'challenge' : 'method');
    state.callbackUrl = callbackUrl;
    if (forced) state.forceChallenge = true;
    return res.json({
      success: true,
      message: '3-D Secure authentication required',
      code: 2,
      ...envelope(ctx, txn),
      threeDSecureV2: atOnce ? step3Shape(base, state) : step2Shape(base, state),
    });
  });

  router.post(`${V2}/3dsv2/:reference/confirm`, (req, res) => {
    const txn = ctx.store.require(refParam(req));
    const r = bodyReader(req, Step2ConfirmRequestLenientSchema);
    const reference = r.str('reference', { max: 100 });
    const txId = r.reqStr('txId', { max: 100 });
    const transactionId = r.reqStr('transactionId', { max: 100 });
    if (reference !== undefined && reference !== txn.reference) {
      throw badRequest(`reference ${reference} does not match the path's ${txn.reference}`);
    }
    const state = txn.threeDS;
    if (
      txn.status !== 'THREE_D_SECURE' ||
      !state ||
      state.version !== 2 ||
      state.step !== 'method'
    ) {
      throw conflict(
        `Transaction ${txn.reference} is not waiting for a 3-D Secure Step 2 confirm`,
        envelope(ctx, txn),
      );
    }
    if (txId !== state.txId || transactionId !== state.transactionId) {
      throw badRequest('txId and transactionId do not match this payment');
    }
    state.step2ConfirmAt = ctx.clock.now();
    const b = txn.card?.behaviour;
    if (b === 'v2-method-auth-fails') {
      state.step = 'done';
      return sendDecline(ctx, res, txn, DECLINES.authFailed, 3);
    }
    if (
      b === 'v2-method-frictionless' &&
      !state.forceChallenge &&
      state.methodReceivedAt !== undefined
    ) {
      state.step = 'done';
      approve(ctx, txn, txn.autoExecute === true);
      onApproved(ctx, txn);
      return res.json({ success: true, message: 'Approved', code: 1, ...envelope(ctx, txn) });
    }
    toChallenge(state);
    return res.json({
      success: true,
      message: '3-D Secure challenge required',
      code: 2,
      ...envelope(ctx, txn),
      threeDSecureV2: step3Shape(baseUrl(ctx, req), state),
    });
  });

  router.post(`${V2}/:reference/confirm`, (req, res) => {
    const txn = ctx.store.require(refParam(req));
    const r = bodyReader(req, ConfirmRequestLenientSchema);
    const paRes = r.str('paRes', { max: 4096 });
    const cres = r.str('cres', { max: 4096 });
    if (paRes === undefined && cres === undefined) {
      throw badRequest('paRes (3-D Secure v1) or cres (3-D Secure v2) is required');
    }
    const state = txn.threeDS;
    if (txn.status !== 'THREE_D_SECURE' || !state || state.step !== 'challenge') {
      throw conflict(
        `Transaction ${txn.reference} is ${txn.status} and not waiting for 3-D Secure`,
        envelope(ctx, txn),
      );
    }
    const field = state.version === 2 ? 'cres' : 'paRes';
    const value = state.version === 2 ? cres : paRes;
    if (value === undefined)
      throw badRequest(`${field} is required: this payment uses 3-D Secure v${state.version}`);
    // A junk or foreign proof is a malformed request and changes nothing: the genuine one still confirms.
    const check = verifyResult(ctx, state, value);
    if (!check.ok) throw badRequest(`${field} ${check.reason}`);
    if (state.authResult === undefined) {
      throw conflict(
        `The shopper has not completed 3-D Secure for ${txn.reference} yet`,
        envelope(ctx, txn),
      );
    }
    state.step = 'done';
    state.confirmedAt = ctx.clock.now();
    const b = txn.card?.behaviour;
    if (check.transStatus === 'N' || (state.version === 1 && b === 'v2-method-auth-fails')) {
      fail(ctx, txn, DECLINES.authFailed.message);
      failSubscription(ctx, txn);
      const extra =
        state.version === 2 ? { error: { code: 3, message: DECLINES.authFailed.message } } : {};
      return res.json({
        success: false,
        message: DECLINES.authFailed.message,
        originalErrorCode: DECLINES.authFailed.originalErrorCode,
        code: 3,
        ...extra,
        ...envelope(ctx, txn),
      });
    }
    if (b === 'v2-challenge-then-decline') return sendDecline(ctx, res, txn, DECLINES.doNotHonour);
    approve(ctx, txn, txn.autoExecute === true);
    onApproved(ctx, txn);
    return res.json({
      success: true,
      message: 'Approved',
      originalErrorCode: 'fin000',
      code: 1,
      ...envelope(ctx, txn),
    });
  });

  return router;
}
