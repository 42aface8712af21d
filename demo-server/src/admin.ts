import express, { type Request, type Response, type Router } from 'express';
import type { GatewayClient } from '@pg-checkout/node';
import type { adminAuth, AdminSession } from './admin-auth.js';
import { escapeHtml, formatAmount, page } from './html.js';
import { webhookLog, type WebhookEntry } from './webhook-log.js';

interface ListedTransaction {
  reference: string;
  merchantReference?: string;
  amount: number;
  currency: string;
  status: string;
  pending?: boolean;
  date?: string;
  paymentMethod?: string;
}

const REFERENCE = /^[A-Za-z0-9_.:-]{1,99}$/;

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

function actions(t: ListedTransaction, csrf: string): string {
  const ref = escapeHtml(t.reference);
  const token = `<input type="hidden" name="_csrf" value="${escapeHtml(csrf)}">`;
  if (t.amount < 0 || t.pending) return '';
  if (t.status === 'AUTHORIZED') {
    return `<form method="post" action="/admin/payments/${ref}/execute">${token}<button>Execute</button></form>`;
  }
  if (t.status === 'SETTLED') {
    const id = `refund-${ref}`;
    return `<form method="post" action="/admin/payments/${ref}/refund" class="refund">
  <label for="${id}">Refund amount (blank: all)</label>
  <input id="${id}" name="amount" inputmode="decimal" size="8" placeholder="${escapeHtml((t.amount / 100).toFixed(2).replace('.', ','))}">
  <input type="hidden" name="currency" value="${escapeHtml(t.currency)}">
  ${token}
  <button>Refund</button>
</form>`;
  }
  return '';
}

function verification(w: WebhookEntry): string {
  const reason = w.reason ? escapeHtml(w.reason) : '';
  if (!w.verified) return reason ? `rejected: ${reason}` : 'rejected';
  const checked = w.kind === 'payment' ? 'verified with the gateway' : 'verified';
  return reason ? `${checked} (${reason})` : checked;
}

function renderList(transactions: ListedTransaction[], csrf: string, notice?: string): string {
  const rows = transactions
    .map(
      (t) => `<tr>
<td><code>${escapeHtml(t.reference)}</code></td>
<td>${escapeHtml(t.merchantReference ?? '')}</td>
<td>${escapeHtml(t.date ?? '')}</td>
<td>${escapeHtml(t.paymentMethod ?? '')}</td>
<td>${escapeHtml(formatAmount(t.amount, t.currency))}</td>
<td data-status="${escapeHtml(statusLabel(t))}">${escapeHtml(statusLabel(t))}</td>
<td>${actions(t, csrf)}</td>
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
  return `<h1>Back office</h1>
<form method="post" action="/admin/logout" class="logout"><input type="hidden" name="_csrf" value="${escapeHtml(csrf)}"><button>Sign out</button></form>
${notice ? `<p role="status" class="notice">${escapeHtml(notice)}</p>` : ''}
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
</section>`;
}

const sessionOf = (res: Response) => res.locals.adminSession as AdminSession;

/**
 * A small back office behind a sign-in: the gateway's transaction list, execute for authorized
 * payments, full and partial refunds (a refund that goes manual shows as pending), and the webhooks
 * received.
 */
export function adminRouter(client: GatewayClient, auth: ReturnType<typeof adminAuth>): Router {
  const router = express.Router();
  router.use(auth.routes, auth.requireSession, auth.requireCsrf);

  router.get('/', async (_req: Request, res: Response) => {
    const session = sessionOf(res);
    const list = await client.lookups.list({});
    const transactions = [...(list as ListedTransaction[])].reverse();
    const nonce = String(res.locals.nonce ?? '');
    const notice = session.notice;
    session.notice = undefined;
    res
      .type('html')
      .send(
        page({ title: 'Back office', nonce, body: renderList(transactions, session.csrf, notice) }),
      );
  });

  // What an action did is shown once on the next page, kept in the session rather than the URL.
  const back = (res: Response, notice: string) => {
    sessionOf(res).notice = notice;
    res.redirect(303, '/admin');
  };

  router.post('/payments/:reference/execute', async (req, res) => {
    const reference = req.params.reference;
    if (!REFERENCE.test(reference)) return back(res, 'Unknown payment reference.');
    try {
      const record = await client.lookups.payment(reference);
      const result =
        record.currency === 'ZAR'
          ? await client.payments.execute(reference)
          : await client.foreign.execute(reference);
      back(res, `Payment ${reference} ${result.kind === 'reversed' ? 'reversed' : 'executed'}.`);
    } catch (err) {
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
    const amount = blank ? undefined : parseAmount(body.amount);
    if (!blank && amount === undefined) return back(res, 'Enter a refund amount such as 12.50.');
    try {
      const record = await client.lookups.payment(reference);
      const transaction = amount === undefined ? undefined : { currency: record.currency, amount };
      const result =
        record.currency === 'ZAR'
          ? await client.payments.refund(reference, transaction)
          : await client.foreign.refund(reference, transaction);
      back(
        res,
        result.kind === 'pending'
          ? `Refund of ${reference} is pending: ${result.message}`
          : `Refund of ${reference} done.`,
      );
    } catch (err) {
      back(res, `Refund failed: ${(err as Error).message}`);
    }
  });

  return router;
}
