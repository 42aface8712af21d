import express, { Router } from 'express';
import type { Ctx } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { readFaults, type FaultInjector } from '../faults.js';
import { formatWebhookDate } from '../format.js';
import { MAIN_MERCHANT_ID } from '../store.js';
import { FAILURE_STATUSES, type FailureStatus, type Txn } from '../types.js';
import { BodyReader, readUrl } from '../validate.js';
import { md5 } from '../webhooks.js';
import { fees } from './lookups.js';

/** The sandbox's record of a transaction, for tests and the dashboard; the card only masked. */
export function inspect(ctx: Ctx, txn: Txn): Record<string, unknown> {
  const t = txn.threeDS;
  return {
    reference: txn.reference,
    merchantReference: txn.merchantReference,
    kind: txn.kind,
    status: txn.status,
    amount: txn.amount,
    currency: txn.currency,
    displayCurrency: txn.displayCurrency ?? null,
    authorized: txn.authorized,
    settled: txn.settled,
    refunded: txn.refunded,
    pending: txn.pending === true,
    message: txn.message ?? null,
    merchantId: txn.merchantId,
    parent: txn.parent ?? null,
    createdAt: txn.createdAt,
    updatedAt: txn.updatedAt,
    card: txn.card
      ? {
          number: txn.card.masked,
          type: txn.card.type,
          cardHolder: txn.card.cardHolder,
          expiryMonth: txn.card.expiryMonth,
          expiryYear: txn.card.expiryYear,
        }
      : null,
    threeDS: t
      ? {
          version: t.version,
          step: t.step,
          transactionId: t.transactionId,
          txId: t.txId ?? null,
          methodReceivedAt: t.methodReceivedAt ?? null,
          step2ConfirmAt: t.step2ConfirmAt ?? null,
          challengeShownAt: t.challengeShownAt ?? null,
          challengeCompletedAt: t.challengeCompletedAt ?? null,
          confirmedAt: t.confirmedAt ?? null,
          authResult: t.authResult ?? null,
        }
      : null,
    hosted: txn.hosted
      ? {
          urls: txn.hosted.urls,
          authorize: txn.hosted.authorize,
          hold: txn.hosted.hold,
          transactionDate: txn.hosted.transactionDay ?? null,
          pax: txn.hosted.pax ?? null,
          transfer: txn.hosted.transfer ?? null,
        }
      : null,
    subscriptionReference: txn.subscriptionRef ?? null,
    transferDate: txn.transferDate ?? null,
    webhooks: txn.webhooks ?? [],
  };
}

export function inspectionRoutes(ctx: Ctx, faults: FaultInjector): Router {
  const router = Router();
  router.use('/_sandbox', express.json({ limit: '64kb' }));
  let nextPayoutId = 5001;

  const reader = (body: unknown): BodyReader => BodyReader.from(body ?? {});

  router.get('/_sandbox/transactions', (req, res) => {
    const limit = Math.min(Math.max(Number(req.query.limit) || 100, 1), 500);
    const merchantReference =
      typeof req.query.merchantReference === 'string' ? req.query.merchantReference : undefined;
    // With a merchant reference every record is searched (attempts, refunds); otherwise the latest only.
    const pool = merchantReference
      ? [...ctx.store.txns.values()].filter((t) => t.merchantReference === merchantReference)
      : ctx.store.recent;
    const list = pool
      .slice(-limit)
      .reverse()
      .map((t) => inspect(ctx, t));
    res.json({
      success: true,
      now: ctx.clock.now(),
      transactions: list,
      total: ctx.store.txns.size,
    });
  });

  router.get('/_sandbox/transactions/:reference', (req, res) => {
    const txn = ctx.store.get(req.params.reference);
    if (!txn) throw notFound(`No transaction with reference ${req.params.reference}`);
    res.json({ success: true, ...inspect(ctx, txn) });
  });

  router.get('/_sandbox/subscriptions/:reference', (req, res) => {
    const sub = ctx.store.subscriptions.get(req.params.reference);
    if (!sub) throw notFound(`No subscription with reference ${req.params.reference}`);
    const { card, ...rest } = sub;
    res.json({ success: true, ...rest, card: { number: card.masked, type: card.type } });
  });

  router.get('/_sandbox/clock', (_req, res) => {
    res.json({ success: true, now: ctx.clock.now() });
  });

  router.post('/_sandbox/clock', async (req, res) => {
    const advanceMs = reader(req.body).reqInt('advanceMs', {
      min: 0,
      max: 10 * 365 * 24 * 3600 * 1000,
    });
    const now = await ctx.clock.advance(advanceMs);
    res.json({ success: true, now });
  });

  // The profile's choices where the spec says "not shown" (fixed at start; see the README's table).
  router.get('/_sandbox/choices', (_req, res) => {
    res.json({ success: true, profile: ctx.profile, choices: ctx.choices });
  });

  router.get('/_sandbox/settings', (_req, res) => {
    res.json({ success: true, ...ctx.settings });
  });

  router.post('/_sandbox/settings', (req, res) => {
    const r = reader(req.body);
    for (const key of [
      'notifyFailed',
      'notifyPending',
      'notifyRefunds',
      'paymentPageEnabled',
    ] as const) {
      const v = r.bool(key);
      if (v !== undefined) ctx.settings[key] = v;
    }
    const failure = r.str('failureStatus');
    if (failure !== undefined) {
      if (!FAILURE_STATUSES.includes(failure as FailureStatus))
        throw badRequest("failureStatus must be '200' or '4xx'");
      ctx.settings.failureStatus = failure as FailureStatus;
    }
    const keys = r.raw.pageUrlKeys;
    if (keys !== undefined) {
      if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string'))
        throw badRequest('pageUrlKeys must be an array of strings');
      ctx.settings.pageUrlKeys = keys as string[];
    }
    res.json({ success: true, ...ctx.settings });
  });

  router.get('/_sandbox/faults', (_req, res) => {
    res.json({ success: true, faults: faults.current() ?? null, counts: faults.counts });
  });

  router.post('/_sandbox/faults', (req, res) => {
    const options = readFaults(reader(req.body));
    faults.configure(options);
    res.json({ success: true, faults: faults.current() ?? null });
  });

  router.post('/_sandbox/payouts', (req, res) => {
    const r = reader(req.body);
    const url = readUrl(r, 'url', true)!;
    const merchantId = r.int('merchantId', { min: 1 }) ?? MAIN_MERCHANT_ID;
    const merchant = ctx.store.merchants.get(merchantId);
    if (!merchant) throw badRequest(`merchantId ${merchantId} is not a sandbox merchant`);
    const only = r.str('currency', { pattern: /^[A-Z]{3}$/, hint: 'a three-letter code' });
    const now = ctx.clock.now();
    // Incoming: settled money of this merchant; outgoing: transfers it sent, as negative rows (spec, Events).
    const rows: { txn: Txn; outgoing: boolean }[] = [];
    for (const t of ctx.store.txns.values()) {
      if (only !== undefined && t.currency !== only) continue;
      if (
        t.merchantId === merchantId &&
        !t.settlement &&
        (t.status === 'SETTLED' || t.status === 'REFUNDED') &&
        t.settled > 0
      )
        rows.push({ txn: t, outgoing: false });
      if (
        t.kind === 'transfer' &&
        t.fromMerchantId === merchantId &&
        !t.outgoingSettlement &&
        t.status === 'SETTLED'
      )
        rows.push({ txn: t, outgoing: true });
    }
    // The payload has one currency: one payout per currency, as a bank pays each account apart.
    const byCurrency = new Map<string, typeof rows>();
    for (const row of rows) {
      const list = byCurrency.get(row.txn.currency) ?? [];
      list.push(row);
      byCurrency.set(row.txn.currency, list);
    }
    if (byCurrency.size === 0) byCurrency.set(only ?? 'ZAR', []);
    const payouts = [...byCurrency].map(([currency, group]) => {
      const payoutId = nextPayoutId++;
      const transactions = group.map(({ txn: t, outgoing }) => {
        const f = fees(t);
        const amount = outgoing ? -t.amount : t.amount;
        const feesVat = outgoing ? 0 : f.feesVat;
        return {
          merchantReference: t.merchantReference,
          amount,
          fees: outgoing ? 0 : f.fees,
          feesVat,
          netAmount: amount - feesVat,
          currency: t.currency,
          paymentReference: t.reference,
          status: t.status,
          consumerEmail: t.consumer?.email ?? null,
          consumerFirstname: t.consumer?.name ?? null,
          consumerSurname: t.consumer?.surname ?? null,
          threeDomainSecure: t.threeDS ? 'USED' : '',
          dateCreated: formatWebhookDate(t.createdAt),
          dateExecuted: formatWebhookDate(t.updatedAt),
          paymentMethod: t.paymentMethod === 'TRANSFER' ? 'TRANSFER' : 'CC',
        };
      });
      const totalAmount = transactions.reduce((sum, x) => sum + x.amount, 0);
      const totalFees = transactions.reduce((sum, x) => sum + x.feesVat, 0);
      const payload = {
        payoutDate: formatWebhookDate(now),
        totalAmount,
        totalFees,
        netTotal: totalAmount - totalFees,
        payoutId,
        currency,
        hash: md5(String(payoutId) + ctx.secret),
        merchantName: merchant.name,
        merchantId,
        channelId: 1,
        transactions,
      };
      const settlement = { id: payoutId, date: now, amount: payload.netTotal };
      for (const { txn, outgoing } of group) {
        if (outgoing) txn.outgoingSettlement = settlement;
        else txn.settlement = settlement;
      }
      const delivery = ctx.webhooks.send('payout', url, payload);
      return { payoutId, deliveryId: delivery.id, payload };
    });
    // The first payout's fields stay at the top level for callers that send one currency.
    res.json({ success: true, ...payouts[0], payouts });
  });

  router.get('/_sandbox/webhooks', (_req, res) => {
    res.json({ success: true, deliveries: ctx.webhooks.recent.slice(-200) });
  });

  return router;
}
