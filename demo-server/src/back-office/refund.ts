import type { Request, Response } from 'express';
import { RefundError } from '@pg-checkout/express';
import { formatAmount } from '../platform/html.js';
import type { AdminDeps } from './deps.js';
import { back, formKey, outcomeUnknown, REFERENCE, RELOAD } from './forms.js';

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

const alreadyRefunded = (reference: string) =>
  `This refund of ${reference} was already sent (the form was submitted twice); nothing more was refunded.`;

const checkingNotice = (reference: string, amount: string) =>
  `Refund of ${amount} of ${reference}: checking. The gateway's answer was lost and it does not show the refund yet; this page looks it up again, and sending the same form again never refunds twice.`;

/**
 * POST /admin/payments/:reference/refund: refunds all that is left or the amount entered, through the
 * checkout's refund use case, once per form key (a form whose answer was lost may be sent again).
 */
export function refundPayment({ actions: forms, refunds }: AdminDeps) {
  return async (req: Request<{ reference: string }>, res: Response) => {
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
  };
}
