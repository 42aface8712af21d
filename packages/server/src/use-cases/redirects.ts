import type { RouteAnswer } from '@pg-checkout/protocol/browser';
import { CheckoutError } from '../errors.js';
import type { RedirectMethod } from '@pg-checkout/protocol/vocabulary';
import type { Caller } from '../setup/caller.js';
import type { Context } from '../setup/context.js';
import { classifyGatewayError, setupFault } from '../gateway/failures.js';
import { enforceLimits } from '../limits/limits.js';
import { pendingState } from '../order/outcomes.js';
import { notifyUrl } from '../order/route-url.js';
import type { RedirectCommand } from './schemas.js';
import { amountChanged } from './amount-shown.js';
import { recordAnswer, refreshAttempts, withOrder } from '../order/book.js';
import { attemptReference, paidAttempt } from '../order/ledger.js';

export type { RedirectMethod };

const LABEL: Record<RedirectMethod, string> = {
  hosted: 'Hosted-page',
  redirect: 'Redirect',
  eft: 'Instant EFT',
};

const alreadyPaid = () => new CheckoutError('already_paid', 'This order has already been paid.');
const stillUnknown = () =>
  new CheckoutError(
    'gateway_timeout',
    'The payment service did not answer in time. Please wait a moment before trying again; you will not be charged twice.',
  );

/**
 * `POST {mount}/hosted|redirect|eft`: starts a payment on the gateway's own page for the caller's
 * order, under the same lock, ledger and paid mark as card payments: one order is paid once.
 */
export async function startRedirect(
  method: RedirectMethod,
  { consumer, shown }: RedirectCommand,
  caller: Caller,
  ctx: Context,
): Promise<RouteAnswer<`POST /${RedirectMethod}`>> {
  if (!ctx.methods.includes(method)) {
    throw new CheckoutError(
      'method_not_enabled',
      `${LABEL[method]} payments are not offered here.`,
    );
  }
  await enforceLimits(ctx, caller, 'pay');
  const order = await caller.order(method);
  if (method === 'hosted' && order.currency === 'ZAR') {
    throw new CheckoutError(
      'invalid_request',
      'The hosted page is for payments in currencies other than ZAR.',
    );
  }
  return withOrder(ctx, order.reference, async (book) => {
    const { ledger } = book;
    if (paidAttempt(ledger)) throw alreadyPaid();
    if ((await refreshAttempts(ctx, order.reference, ledger)) === 'wait') throw stillUnknown();
    if (paidAttempt(ledger)) throw alreadyPaid();
    const changed = amountChanged(shown, order);
    if (changed) return changed;
    const { n, attempt } = await book.start({
      method,
      amount: order.amount,
      currency: order.currency,
    });
    const merchantReference = attemptReference(order.reference, n);
    const transaction = {
      reference: merchantReference,
      currency: order.currency,
      amount: order.amount,
    };
    const urls = {
      ...ctx.options.redirectUrls!,
      notify: notifyUrl(ctx.publicUrl),
    };
    // The merchant's own consumer data wins over what the browser typed.
    const mergedConsumer =
      consumer || order.consumer ? { ...consumer, ...order.consumer } : undefined;
    const gateway = await ctx.gateway();
    const options = { forwardedFor: caller.clientIp };
    const request = {
      transaction,
      ...(mergedConsumer ? { consumer: mergedConsumer } : {}),
      ...(order.affiliateMerchantId && method !== 'eft'
        ? { affiliateMerchantId: order.affiliateMerchantId }
        : {}),
    };
    let result: { reference: string; redirectUrl: string };
    try {
      result =
        method === 'hosted'
          ? await gateway.foreign.create({ ...request, urls }, options)
          : method === 'redirect'
            ? await gateway.redirects.create({ ...request, urls }, options)
            : await gateway.redirects.createEft(
                {
                  ...request,
                  consumer: mergedConsumer ?? {},
                  urls: { success: urls.success, cancel: urls.cancel, error: urls.error },
                },
                options,
              );
    } catch (error) {
      const failure = classifyGatewayError(error);
      if (failure.kind === 'duplicate') {
        // The store forgot this attempt; the gateway has it. Read it, and let the shopper retry.
        const found = await gateway.reconcile(merchantReference);
        if (found.found) {
          await recordAnswer(ctx, book, n, { observed: found.record });
          if (attempt.status === 'paid') throw alreadyPaid();
        }
        throw new CheckoutError('conflict', 'Please try again.');
      }
      if (failure.kind === 'outcome_unknown') throw error; // stays `unknown`: the next try reconciles
      await recordAnswer(ctx, book, n, { event: 'never_created' });
      throw setupFault(ctx, failure, error) ?? error;
    }
    await recordAnswer(ctx, book, n, {
      event: 'created',
      payment: {
        reference: result.reference,
        merchantReference,
        orderReference: order.reference,
        amount: order.amount,
        currency: order.currency,
        ...(caller.pageOrigin ? { pageOrigin: caller.pageOrigin } : {}),
        method,
        state: pendingState(result.reference),
      },
      quiet: true,
    });
    return {
      success: true as const,
      reference: result.reference,
      redirectUrl: result.redirectUrl,
      clientSecret: await ctx.secrets.clientSecret(result.reference, merchantReference),
    };
  });
}
