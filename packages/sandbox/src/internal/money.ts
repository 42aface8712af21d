import { badRequest, conflict } from './errors.js';
import { ensureReferenceFree } from './request.js';
import { formatTransactionDate, parseDay } from './format.js';
import { transition } from './state-machine.js';
import { notify, type Ctx } from './context.js';
import type { Txn } from './types.js';

const DAY = 24 * 60 * 60 * 1000;
/** How long a manual (code 7) refund takes on the sandbox clock before it completes. */
export const MANUAL_REFUND_DELAY_MS = DAY;

/** Marks a payment approved: authorized only, or authorized and settled in one step. */
export function approve(ctx: Ctx, txn: Txn, settle: boolean): void {
  const now = ctx.clock.now();
  txn.authorized = txn.amount;
  if (settle) {
    transition(txn, 'SETTLED', now);
    txn.settled = txn.amount;
  } else {
    transition(txn, 'AUTHORIZED', now);
  }
  txn.message = 'Approved';
  runPreparedTransfers(ctx, txn);
}

export function fail(ctx: Ctx, txn: Txn, message: string): void {
  transition(txn, 'FAILED', ctx.clock.now());
  txn.message = message;
}

/**
 * Prepared transfers to affiliates run when the payment succeeds, or on the v3 transaction date
 * when that is later (edits and transfer changes apply until then).
 */
function runPreparedTransfers(ctx: Ctx, txn: Txn): void {
  const hosted = txn.hosted;
  if (!hosted?.transfer) return;
  const now = ctx.clock.now();
  const day = hosted.transactionDay ? parseDay(hosted.transactionDay) : undefined;
  if (day !== undefined && day > now) ctx.clock.schedule(day, () => executeTransfers(ctx, txn));
  else executeTransfers(ctx, txn);
}

function executeTransfers(ctx: Ctx, txn: Txn): void {
  const transfer = txn.hosted?.transfer;
  if (!transfer || transfer.executed || (txn.status !== 'SETTLED' && txn.status !== 'AUTHORIZED'))
    return;
  transfer.executed = true;
  const now = ctx.clock.now();
  for (const item of transfer.toMerchants) {
    const t = ctx.store.add({
      kind: 'transfer',
      status: 'SETTLED',
      merchantReference: item.merchantReference,
      amount: item.amount,
      currency: item.currency,
      now,
      merchantId: item.merchantId,
      paymentMethod: 'TRANSFER',
    });
    t.parent = txn.reference;
    t.fromMerchantId = txn.merchantId;
    t.settled = item.amount;
    t.suspended = false;
  }
}

export function checkCurrency(txn: Txn, currency: string | undefined): void {
  if (currency !== undefined && currency !== txn.currency) {
    throw badRequest(
      `transaction.currency ${currency} does not match the payment's currency ${txn.currency}`,
    );
  }
}

/** Execute: no amount executes all that is authorized, 0 reverses, else a partial execute. */
export function execute(ctx: Ctx, txn: Txn, amount?: number): Record<string, unknown> {
  if (txn.kind === 'foreign' && txn.hosted?.authorize === false && txn.status === 'SETTLED') {
    return executeTransferred(ctx, txn, amount);
  }
  if (txn.status !== 'AUTHORIZED') {
    throw conflict(
      `Transaction ${txn.reference} is ${txn.status}; only an AUTHORIZED payment can be executed`,
      {
        transactionDate: formatTransactionDate(ctx.clock.now()),
        reference: txn.reference,
      },
    );
  }
  if (amount !== undefined && amount > txn.authorized) {
    throw badRequest(
      `transaction.amount ${amount} is more than the authorized amount ${txn.authorized}`,
    );
  }
  const now = ctx.clock.now();
  if (amount === 0) {
    transition(txn, 'REVERSED', now);
    txn.message = 'Reversed';
  } else {
    transition(txn, 'SETTLED', now);
    txn.settled = amount ?? txn.authorized;
    txn.message = 'Executed';
    notify(ctx, txn, 'SETTLED');
  }
  return { success: true, transactionDate: formatTransactionDate(now), reference: txn.reference };
}

/**
 * A v3 payment created with authorize false moved its funds at once; "Execute is allowed but not
 * required" (spec, States): executing the whole amount again answers success and changes nothing.
 * A partial amount or 0 cannot undo a transfer that happened: refund instead.
 */
function executeTransferred(
  ctx: Ctx,
  txn: Txn,
  amount: number | undefined,
): Record<string, unknown> {
  const transactionDate = formatTransactionDate(ctx.clock.now());
  if (amount !== undefined && amount !== txn.settled) {
    throw conflict(
      `Payment ${txn.reference} was created with authorize false and its ${txn.settled} were transferred already; only the full amount can be executed (refund to give money back)`,
      { transactionDate, reference: txn.reference },
    );
  }
  return { success: true, transactionDate, reference: txn.reference };
}

export interface RefundResult {
  status: number;
  body: Record<string, unknown>;
}

/** Refunds part or all of what is settled; amounts ending in 07 cents go manual (code 7). */
export function refund(
  ctx: Ctx,
  txn: Txn,
  amount: number | undefined,
  merchantReference?: string,
): RefundResult {
  const now = ctx.clock.now();
  const transactionDate = formatTransactionDate(now);
  if (txn.kind === 'refund' || txn.kind === 'transfer') {
    throw badRequest(
      `${txn.reference} is a ${txn.kind}, not a payment; only payments can be refunded`,
    );
  }
  // A sandbox that accepts over-refunds refunds a fully refunded payment again too.
  const refundable =
    txn.status === 'SETTLED' || (txn.status === 'REFUNDED' && ctx.choices.overRefund === 'accept');
  if (!refundable) {
    throw conflict(
      `Transaction ${txn.reference} is ${txn.status}; only a SETTLED payment can be refunded`,
      {
        transactionDate,
        reference: txn.reference,
      },
    );
  }
  const left = txn.settled - txn.refunded;
  const value = amount ?? left;
  if (value <= 0) {
    if (amount === undefined)
      throw conflict(`Nothing is left to refund on ${txn.reference}`, {
        transactionDate,
        reference: txn.reference,
      });
    throw badRequest('transaction.amount must be more than 0');
  }
  if (value > left && ctx.choices.overRefund === 'refuse') {
    throw conflict(
      `Refund of ${value} is more than the ${left} left to refund on ${txn.reference}`,
      {
        transactionDate,
        reference: txn.reference,
      },
    );
  }
  if (merchantReference) ensureReferenceFree(ctx, merchantReference, 'transaction.reference');
  const manual = value % 100 === 7;
  const r = ctx.store.add({
    kind: 'refund',
    status: manual ? 'NEW' : 'REFUNDED',
    merchantReference: merchantReference ?? '',
    amount: -value,
    currency: txn.currency,
    now,
    merchantId: txn.merchantId,
    paymentMethod: txn.paymentMethod,
    claimsReference: true,
  });
  r.parent = txn.reference;
  r.card = txn.card;
  r.consumer = txn.consumer;
  txn.refunded += value;
  if (manual) {
    r.pending = true;
    r.message = 'Refund is processed manually';
    ctx.clock.schedule(now + MANUAL_REFUND_DELAY_MS, () => completeManualRefund(ctx, txn, r));
    return {
      status: 200,
      body: {
        success: false,
        code: 7,
        originalErrorCode: 'fin012',
        message:
          'The refund is being processed manually; it can take up to 8 working days to reflect on the card',
        transactionDate,
        reference: r.reference,
      },
    };
  }
  finishRefund(ctx, txn, r, false);
  return { status: 200, body: { success: true, transactionDate, reference: r.reference } };
}

function completeManualRefund(ctx: Ctx, payment: Txn, r: Txn): void {
  transition(r, 'REFUNDED', ctx.clock.now());
  r.pending = false;
  r.message = 'Refunded';
  finishRefund(ctx, payment, r, true);
}

function finishRefund(ctx: Ctx, payment: Txn, r: Txn, wasManual: boolean): void {
  if (payment.refunded >= payment.settled && payment.status === 'SETTLED') {
    transition(payment, 'REFUNDED', ctx.clock.now());
  }
  // A manual refund's completion is always notified when there is a notify URL (spec, Events).
  notify(ctx, payment, 'REFUNDED', { amount: r.amount, force: wasManual, refund: r });
}
