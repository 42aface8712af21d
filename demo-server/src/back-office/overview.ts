import type { Request, Response } from 'express';
import { page } from '../platform/html.js';
import type { AdminDeps } from './deps.js';
import type { BackOfficeAction } from './actions.js';
import { renderCharts } from './charts.js';
import { sessionOf } from './forms.js';
import { renderList, type ListedTransaction, type RefundView } from './overview-page.js';

/** Orders shown in the back office, newest first. */
const ORDERS_SHOWN = 50;
/** Settled payments whose refundable amount the page asks the gateway for (two reads each), newest first. */
const REFUNDABLE_SHOWN = 50;

/**
 * GET /admin: the charts, the shop's orders, the gateway's transactions with what can be done to each,
 * the webhooks received and the payment pages' reports.
 */
export function showOverview({ client, orders, history, ...deps }: AdminDeps) {
  return async (_req: Request, res: Response) => {
    const session = sessionOf(res);
    // The spec shows no order for the list: newest first by the date each row carries.
    const list = await client.lookups.list({});
    const transactions = [...(list as ListedTransaction[])].sort((a, b) =>
      String(b.date ?? '').localeCompare(String(a.date ?? '')),
    );
    const settled = transactions
      .filter((t) => t.status === 'SETTLED' && t.amount > 0)
      .slice(0, REFUNDABLE_SHOWN)
      .map((t) => t.reference);
    const refundViews = await refundViewsOf(deps, settled);
    const recent = await orders.recent(ORDERS_SHOWN);
    const charts = history ? renderCharts(await history.lastHour(), Date.now()) : '';
    const notice = session.notice;
    session.notice = undefined;
    res.type('html').send(
      page({
        title: 'Back office',
        body: renderList(transactions, refundViews, recent, session.csrf, notice, charts),
      }),
    );
  };
}

/**
 * Each settled payment's refunds as the gateway records them (the checkout reads its refund slots
 * by merchant reference and says which form's key each belongs to): a refund form whose answer was
 * lost is settled once its key shows among them, else it is still checking.
 */
async function refundViewsOf(
  { actions: forms, refunds }: Pick<AdminDeps, 'actions' | 'refunds'>,
  payments: string[],
): Promise<Map<string, RefundView>> {
  const [unsettled, readings] = await Promise.all([
    forms.unsettledRefunds(payments),
    Promise.all(
      payments.map(async (reference) => ({
        reference,
        refundable: await refunds.refundable(reference).catch(() => undefined),
      })),
    ),
  ]);
  const refundableOf = new Map(readings.map((r) => [r.reference, r.refundable]));
  const checking = new Map<string, BackOfficeAction[]>();
  for (const a of unsettled) {
    const found = refundableOf.get(a.paymentReference)?.refunds.find((r) => r.key === a.key);
    if (found) {
      const pending = found.pending === true || found.status === 'NEW';
      await forms.finish(a.key, pending ? 'pending' : 'done', 'found by its reference');
      continue;
    }
    checking.set(a.paymentReference, [...(checking.get(a.paymentReference) ?? []), a]);
  }
  return new Map(
    payments.map((reference): [string, RefundView] => {
      const refundable = refundableOf.get(reference);
      return [
        reference,
        { ...(refundable ? { refundable } : {}), checking: checking.get(reference) ?? [] },
      ];
    }),
  );
}
