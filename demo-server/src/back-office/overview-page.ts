import { escapeHtml, formatAmount } from '../platform/html.js';
import type { Refundable } from '@pg-checkout/express';
import { chargedForOther, type Order } from '../shop/orders.js';
import { webhookLog, type WebhookEntry } from '../shop/webhook-log.js';
import { newFormKey, type BackOfficeAction } from './actions.js';
import { renderPageReports } from './page-reports.js';

/** A payment as the gateway's transaction list gives it. */
export interface ListedTransaction {
  reference: string;
  merchantReference?: string | null;
  amount: number;
  currency: string;
  status: string;
  pending?: boolean;
  date?: string;
  paymentMethod?: string | null;
}

function statusLabel(t: ListedTransaction): string {
  if (t.pending) return t.amount < 0 ? 'refund pending' : 'pending';
  return t.status;
}

const written = (cents: number) => (cents / 100).toFixed(2).replace('.', ',');

/** What the page knows of a settled payment's refunds: the gateway's records, and forms still checking. */
export interface RefundView {
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

export function renderList(
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
