import type { Context } from '../setup/context.js';
import { attemptPayment } from '../order/book.js';
import { parseAttemptReference } from '../order/ledger.js';

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
  const record = await attemptPayment(ctx, attempt);
  const content = record?.threeDS?.tdsMethodContent;
  return record && content ? { content, frameAncestor: record.pageOrigin ?? "'self'" } : undefined;
}
