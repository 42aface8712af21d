import type { Context } from '../setup/context.js';
import { orderKeys } from '../stores/keys.js';
import { loadPayment } from '../order/records.js';
import { parseAttemptReference, type Ledger } from '../order/ledger.js';

/** The attempt a `:session` token of the 3-D Secure URLs names, or `undefined` when the token is not ours. */
export async function sessionAttempt(ctx: Context, session: string | undefined) {
  const merchantReference = session ? await ctx.secrets.merchantReferenceOf(session) : undefined;
  return merchantReference ? parseAttemptReference(merchantReference) : undefined;
}

/**
 * `GET {mount}/3ds/:session/method`: the bank's `tdsMethodContent` of the attempt, served byte for
 * byte as its own document, framed only by the page that started the payment.
 */
export async function methodContent(
  ctx: Context,
  attempt: { order: string; n: number },
): Promise<{ content: string; frameAncestor: string } | undefined> {
  const raw = await ctx.store.get(orderKeys(attempt.order).ledger);
  const reference = raw ? (JSON.parse(raw) as Ledger).attempts[attempt.n]?.reference : undefined;
  const record = reference ? await loadPayment(ctx, reference) : undefined;
  const content = record?.threeDS?.tdsMethodContent;
  return record && content ? { content, frameAncestor: record.pageOrigin ?? "'self'" } : undefined;
}
