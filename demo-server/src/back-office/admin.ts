import express, { type Request, type Response, type Router } from 'express';
import { RefundError, type CheckoutRouter, type Refundable } from '@pg-checkout/express';
import {
  GatewayConnectionError,
  GatewayTimeoutError,
  RequestRejectedError,
  type GatewayClient,
} from '@pg-checkout/node';
import type { adminAuth, AdminSession } from './admin-auth.js';
import { FORM_KEY, newFormKey, type BackOfficeAction, type BackOfficeActions } from './actions.js';
import { renderCharts } from './charts.js';
import { escapeHtml, formatAmount, page } from '../platform/html.js';
import { chargedForOther, type Order, type OrderStore } from '../shop/orders.js';
import type { MetricsHistory } from '../platform/metrics/metrics-history.js';
import { webhookLog, type WebhookEntry } from '../shop/webhook-log.js';
import { renderPageReports } from '../shop/page-report-log.js';

interface ListedTransaction {
  reference: string;
  merchantReference?: string | null;
  amount: number;
  currency: string;
  status: string;
  pending?: boolean;
  date?: string;
  paymentMethod?: string | null;
}

const REFERENCE = /^[A-Za-z0-9_.:-]{1,99}$/;
/** Orders shown in the back office, newest first. */
const ORDERS_SHOWN = 50;
/** Settled payments whose refundable amount the page asks the gateway for (two reads each), newest first. */
const REFUNDABLE_SHOWN = 50;

/**
 * Cents from the back office's amount input, "12,34" as the table writes it or "12.34"; undefined when
 * it is not a positive amount.
 */
function parseAmount(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,9}([.,]\d{1,2})?$/.test(value.trim())) return undefined;
  const [whole, fraction = ''] = value.trim().split(/[.,]/);
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return cents > 0 ? cents : undefined;
}

function statusLabel(t: ListedTransaction): string {
  if (t.pending) return t.amount < 0 ? 'refund pending' : 'pending';
  return t.status;
}

const written = (cents: number) => (cents / 100).toFixed(2).replace('.', ',');

/** What the page knows of a settled payment's refunds: the gateway's records, and forms still checking. */
interface RefundView {
  /** From the gateway's lookup and list; undefined when the gateway could not be asked. */
  refundable?: Refundable;
  /** Refund forms sent whose outcome the gateway does not show yet. */
  checking: BackOfficeAction[];
}

/** A refund form sent whose answer was lost: "checking", and the same form (same key) to send again. */
function checkingLine(t: ListedTransaction, a: BackOfficeAction, csrf: string): string {
  const amount = formatAmount(a.amount ?? 0, a.currency ?? t.currency);
  return `<form method="post" action="/admin/payments/${escapeHtml(t.reference)}/refund" class="refund" data-refund-checking="${escapeHtml(a.key)}">
  <span>Refund of ${escapeHtml(amount)}: checking (its answer was lost; the gateway does not show it yet)</span>
  <input type="hidden" name="_csrf" value="${escapeHtml(csrf)}">
  <input type="hidden" name="key" value="${escapeHtml(a.key)}">
  <input type="hidden" name="amount" value="${escapeHtml(written(a.amount ?? 0))}">
  <button>Check again</button>
</form>`;
}

/** A payment's forms; each drawn with its own idempotency key, so a repeated submit is one request. */
function actions(t: ListedTransaction, csrf: string, view: RefundView | undefined): string {
  const ref = escapeHtml(t.reference);
  const hidden = `<input type="hidden" name="_csrf" value="${escapeHtml(csrf)}">
  <input type="hidden" name="key" value="${newFormKey()}">`;
  if (t.amount < 0 || t.pending) return '';
  if (t.status === 'AUTHORIZED') {
    return `<form method="post" action="/admin/payments/${ref}/execute">${hidden}<button>Execute</button></form>`;
  }
  if (t.status !== 'SETTLED' || !view) return '';
  const checking = view.checking.map((a) => checkingLine(t, a, csrf)).join('\n');
  const r = view.refundable;
  if (!r)
    return `${checking}<span>Refundable amount unknown: the gateway could not be asked.</span>`;
  const pending = r.pending > 0 ? `, ${formatAmount(r.pending, r.currency)} pending` : '';
  const summary = `<span data-refundable="${r.left}">${escapeHtml(formatAmount(r.left, r.currency))} left of ${escapeHtml(formatAmount(r.amount, r.currency))}${escapeHtml(pending)}</span>`;
  if (r.left <= 0) return `${summary}${checking}`;
  const id = `refund-${ref}`;
  // The new refund's form comes first: a sent one still checking follows with its own key.
  return `${summary}
<form method="post" action="/admin/payments/${ref}/refund" class="refund">
  <label for="${id}">Refund amount (blank: all)</label>
  <input id="${id}" name="amount" inputmode="decimal" size="8" placeholder="${escapeHtml(written(r.left))}">
  <input type="hidden" name="currency" value="${escapeHtml(t.currency)}">
  ${hidden}
  <button>Refund</button>
</form>${checking}`;
}

function verification(w: WebhookEntry): string {
  const reason = w.reason ? escapeHtml(w.reason) : '';
  if (!w.verified) return reason ? `rejected: ${reason}` : 'rejected';
  const checked = w.kind === 'payment' ? 'verified with the gateway' : 'verified';
  return reason ? `${checked} (${reason})` : checked;
}

function orderRow(o: Order): string {
  const items = o.lines.map((l) => `${l.quantity} × ${l.name}`).join(', ');
  const charged = o.paid
    ? `<code>${escapeHtml(o.paid.reference)}</code> ${escapeHtml(formatAmount(o.paid.amount, o.paid.currency))}`
    : '';
  return `<tr data-order="${escapeHtml(o.reference)}">
<td><code>${escapeHtml(o.reference)}</code></td>
<td>${escapeHtml(o.createdAt.toISOString())}</td>
<td>${escapeHtml(items)}</td>
<td>${escapeHtml(formatAmount(o.total, o.currency))}</td>
<td data-order-status="${escapeHtml(o.status)}">${escapeHtml(o.status === 'changed' ? chargedForOther(o) : o.status)}</td>
<td>${charged}</td>
</tr>`;
}

function renderList(
  transactions: ListedTransaction[],
  refunds: Map<string, RefundView>,
  orders: { orders: Order[]; count: number },
  csrf: string,
  notice?: string,
  charts = '',
): string {
  const rows = transactions
    .map(
      (t) => `<tr>
<td><code>${escapeHtml(t.reference)}</code></td>
<td>${escapeHtml(t.merchantReference ?? '')}</td>
<td>${escapeHtml(t.date ?? '')}</td>
<td>${escapeHtml(t.paymentMethod ?? '')}</td>
<td>${escapeHtml(formatAmount(t.amount, t.currency))}</td>
<td data-status="${escapeHtml(statusLabel(t))}">${escapeHtml(statusLabel(t))}</td>
<td>${actions(t, csrf, refunds.get(t.reference))}</td>
</tr>`,
    )
    .join('\n');
  const hooks = webhookLog
    .list()
    .map(
      (w) => `<tr>
<td>${escapeHtml(w.receivedAt.toISOString())}</td>
<td>${escapeHtml(w.kind)}</td>
<td>${escapeHtml(w.reference ?? '')}</td>
<td>${escapeHtml(w.status ?? '')}</td>
<td>${w.amount === undefined ? '' : escapeHtml(formatAmount(w.amount, w.currency ?? 'ZAR'))}</td>
<td data-verified="${w.verified}">${verification(w)}</td>
</tr>`,
    )
    .join('\n');
  const shown = orders.count > orders.orders.length ? ` (the latest ${orders.orders.length})` : '';
  return `<h1>Back office</h1>
<form method="post" action="/admin/logout" class="logout"><input type="hidden" name="_csrf" value="${escapeHtml(csrf)}"><button>Sign out</button></form>
${notice ? `<p role="status" class="notice">${escapeHtml(notice)}</p>` : ''}
${charts}
<section aria-labelledby="orders-title">
<h2 id="orders-title" data-order-count="${orders.count}">Orders: ${orders.count}${shown}</h2>
<table>
<thead><tr><th>Order</th><th>Created</th><th>Items</th><th>Total</th><th>Status</th><th>Charged</th></tr></thead>
<tbody>${orders.orders.map(orderRow).join('\n') || '<tr><td colspan="6">No orders yet.</td></tr>'}</tbody>
</table>
</section>
<section aria-labelledby="tx-title">
<h2 id="tx-title">Transactions</h2>
<table>
<thead><tr><th>Reference</th><th>Merchant reference</th><th>Date</th><th>Method</th><th>Amount</th><th>Status</th><th>Actions</th></tr></thead>
<tbody>${rows || '<tr><td colspan="7">No transactions yet.</td></tr>'}</tbody>
</table>
</section>
<section aria-labelledby="wh-title">
<h2 id="wh-title">Webhooks received</h2>
<table>
<thead><tr><th>Received</th><th>Kind</th><th>Payment</th><th>Status</th><th>Amount</th><th>Verification</th></tr></thead>
<tbody>${hooks || '<tr><td colspan="6">None yet.</td></tr>'}</tbody>
</table>
</section>
${renderPageReports()}`;
}

const alreadyExecuted = (reference: string) =>
  `Payment ${reference} was already executed; nothing more was done.`;

const alreadyRefunded = (reference: string) =>
  `This refund of ${reference} was already sent (the form was submitted twice); nothing more was refunded.`;

const checkingNotice = (reference: string, amount: string) =>
  `Refund of ${amount} of ${reference}: checking. The gateway's answer was lost and it does not show the refund yet; this page looks it up again, and sending the same form again never refunds twice.`;

const sessionOf = (res: Response) => res.locals.adminSession as AdminSession;

/** The gateway's answer may leave the outcome unknown: then the form may be sent again as it is. */
const outcomeUnknown = (err: unknown) =>
  err instanceof GatewayTimeoutError || err instanceof GatewayConnectionError;

export interface AdminDeps {
  client: GatewayClient;
  auth: ReturnType<typeof adminAuth>;
  orders: OrderStore;
  actions: BackOfficeActions;
  /** The checkout's refund use case: once per form key, what is left from the gateway's records. */
  refunds: Pick<CheckoutRouter, 'refund' | 'refundable'>;
  /** The checkout's metrics over the last hour, drawn above the lists. */
  history?: MetricsHistory;
}

/**
 * A small back office behind a sign-in: the shop's orders, the gateway's transaction list, execute
 * for authorized payments, full and partial refunds (a refund that goes manual shows as pending),
 * and the webhooks received. Every form carries its own idempotency key: a form sent twice (a
 * double click, a retried post) asks the gateway once; a refund form's key is the checkout's
 * refund key, kept beside the refund's slot reference at the gateway (`<payment>~r<i>`).
 */
export function adminRouter({
  client,
  auth,
  orders,
  actions: forms,
  refunds,
  history,
}: AdminDeps): Router {
  const router = express.Router();
  router.use(auth.routes, auth.requireSession, auth.requireCsrf);

  router.get('/', async (_req: Request, res: Response) => {
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
    const refundViews = await refundViewsOf(settled);
    const recent = await orders.recent(ORDERS_SHOWN);
    const charts = history ? renderCharts(await history.lastHour(), Date.now()) : '';
    const nonce = String(res.locals.nonce ?? '');
    const notice = session.notice;
    session.notice = undefined;
    res.type('html').send(
      page({
        title: 'Back office',
        nonce,
        body: renderList(transactions, refundViews, recent, session.csrf, notice, charts),
      }),
    );
  });

  /**
   * Each settled payment's refunds as the gateway records them (the checkout reads its refund slots
   * by merchant reference and says which form's key each belongs to): a refund form whose answer was
   * lost is settled once its key shows among them, else it is still checking.
   */
  async function refundViewsOf(payments: string[]): Promise<Map<string, RefundView>> {
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

  // What an action did is shown once on the next page, kept in the session rather than the URL.
  const back = (res: Response, notice: string) => {
    sessionOf(res).notice = notice;
    res.redirect(303, '/admin');
  };

  const formKey = (req: Request): string | undefined => {
    const key = (req.body as Record<string, unknown> | undefined)?.key;
    return typeof key === 'string' && FORM_KEY.test(key) ? key : undefined;
  };
  const settledNow = async (reference: string): Promise<boolean> => {
    try {
      return (await client.lookups.payment(reference)).status === 'SETTLED';
    } catch {
      return false;
    }
  };
  const RELOAD =
    'This form is from an older page; nothing was sent. Reload the back office and try again.';

  router.post('/payments/:reference/execute', async (req, res) => {
    const reference = req.params.reference;
    if (!REFERENCE.test(reference)) return back(res, 'Unknown payment reference.');
    const key = formKey(req);
    if (!key) return back(res, RELOAD);
    const begun = await forms.begin({ key, action: 'execute', paymentReference: reference });
    if (!begun.first) {
      if ('conflict' in begun) return back(res, RELOAD);
      if (begun.earlier.state === 'done') return back(res, alreadyExecuted(reference));
    }
    try {
      const record = await client.lookups.payment(reference);
      const result =
        record.currency === 'ZAR'
          ? await client.payments.execute(reference)
          : await client.foreign.execute(reference);
      const done = `Payment ${reference} ${result.kind === 'reversed' ? 'reversed' : 'executed'}.`;
      await forms.finish(key, 'done', done);
      back(res, done);
    } catch (err) {
      if (err instanceof RequestRejectedError && (await settledNow(reference))) {
        // Two submits of one form raced to the gateway; the other one executed it.
        await forms.finish(key, 'done', 'executed by a repeat of the form');
        return back(res, alreadyExecuted(reference));
      }
      if (!outcomeUnknown(err)) await forms.finish(key, 'failed', (err as Error).message);
      back(res, `Execute failed: ${(err as Error).message}`);
    }
  });

  router.post('/payments/:reference/refund', async (req, res) => {
    const reference = req.params.reference;
    if (!REFERENCE.test(reference)) return back(res, 'Unknown payment reference.');
    const body = (req.body ?? {}) as { amount?: unknown };
    // Blank means all; anything else that is not one amount (a repeated field, say) is refused.
    const blank =
      body.amount === undefined || (typeof body.amount === 'string' && body.amount.trim() === '');
    const asked = blank ? undefined : parseAmount(body.amount);
    if (!blank && asked === undefined) return back(res, 'Enter a refund amount such as 12.50.');
    const key = formKey(req);
    if (!key) return back(res, RELOAD);
    const sent = await forms.find(key);
    if (sent && (sent.action !== 'refund' || sent.paymentReference !== reference))
      return back(res, RELOAD);
    if (sent?.state === 'done' || sent?.state === 'pending')
      return back(res, alreadyRefunded(reference));
    // A form whose first submit has no known outcome asks again exactly what it asked then; "all"
    // is what the gateway's records leave, fixed now so the form's row says what it asked.
    let amount = (sent?.state === 'sent' ? sent.amount : undefined) ?? asked;
    let currency = sent?.currency;
    if (amount === undefined || currency === undefined) {
      try {
        const now = await refunds.refundable(reference);
        amount ??= now.left;
        currency = now.currency;
      } catch (err) {
        return back(res, `Refund failed: ${(err as Error).message}`);
      }
    }
    if (amount <= 0) return back(res, `Nothing is left to refund on ${reference}.`);
    const begun = await forms.begin({
      key,
      action: 'refund',
      paymentReference: reference,
      amount,
      currency,
    });
    if (!begun.first) {
      if ('conflict' in begun) return back(res, RELOAD);
      if (begun.earlier.state === 'done' || begun.earlier.state === 'pending')
        return back(res, alreadyRefunded(reference));
    }
    // Sent before with no known outcome: a failure to ask now leaves it checking, never failed.
    const wasUnknown = !begun.first && begun.earlier.state === 'sent';
    const money = formatAmount(amount, currency);
    try {
      const result = await refunds.refund({ reference, amount, key });
      switch (result.status) {
        case 'refunded':
          await forms.finish(key, 'done');
          return back(res, `Refund of ${reference} done (${money}).`);
        case 'pending':
          await forms.finish(key, 'pending', result.message);
          return back(res, `Refund of ${reference} is pending: ${result.message}`);
        case 'already_refunded':
          await forms.finish(
            key,
            result.pending ? 'pending' : 'done',
            'found at the gateway by its reference',
          );
          return back(res, alreadyRefunded(reference));
        case 'unknown':
          return back(res, checkingNotice(reference, money));
      }
    } catch (err) {
      if (err instanceof RefundError && err.code === 'gateway_unavailable' && wasUnknown)
        return back(res, checkingNotice(reference, money));
      if (!outcomeUnknown(err)) await forms.finish(key, 'failed', (err as Error).message);
      back(res, `Refund failed, nothing was refunded: ${(err as Error).message}`);
    }
  });

  return router;
}
