import express, { type Request, type Router } from 'express';
import { CheckoutError } from '../../errors.js';
import type { PaymentMethodName } from '../../options.js';
import type { Context } from '../context.js';
import { classifyGatewayError } from '../gateway-errors.js';
import { asyncRoute, clientIpOf, enforceLimit, originGuard, scratch, sendJson } from '../guards.js';
import {
  attemptReference,
  nextAttempt,
  paidAttempt,
  refreshAttempts,
  statusOfRecord,
  withOrder,
  type LedgerAttempt,
} from '../ledger.js';
import { pendingState } from '../outcomes.js';
import { saveSafely } from '../settle.js';
import { jsonBody } from '../json-body.js';
import { parseBody, parseOrder, RedirectBody } from '../schemas.js';

type RedirectMethod = Exclude<PaymentMethodName, 'card'>;

const LABEL: Record<RedirectMethod, string> = {
  hosted: 'Hosted-page',
  redirect: 'Redirect',
  eft: 'Instant EFT',
};

const alreadyPaid = () =>
  new CheckoutError(409, 'already_paid', 'This order has already been paid.');
const stillUnknown = () =>
  new CheckoutError(
    504,
    'gateway_timeout',
    'The payment service did not answer in time. Please wait a moment before trying again; you will not be charged twice.',
  );

async function startRedirect(ctx: Context, req: Request, method: RedirectMethod) {
  if (!ctx.methods.includes(method)) {
    throw new CheckoutError(
      404,
      'method_not_enabled',
      `${LABEL[method]} payments are not offered here.`,
    );
  }
  const { consumer } = parseBody(RedirectBody, req.body);
  const clientIp = clientIpOf(req);
  if (ctx.rateLimit)
    await enforceLimit(ctx, `ip:${clientIp}`, ctx.rateLimit.perIp, ctx.rateLimit.windowMs);
  const order = parseOrder(await ctx.options.resolveOrder(req));
  if (method === 'hosted' && order.currency === 'ZAR') {
    throw new CheckoutError(
      400,
      'invalid_request',
      'The hosted page is for payments in currencies other than ZAR.',
    );
  }
  const pageOrigin = scratch(req).pageOrigin!;
  // The same lock, ledger and paid mark as card payments: one order is paid once, by any method.
  return withOrder(ctx, order.reference, async ({ ledger }) => {
    if (paidAttempt(ledger)) throw alreadyPaid();
    if ((await refreshAttempts(ctx, order.reference, ledger)) === 'wait') throw stillUnknown();
    if (paidAttempt(ledger)) throw alreadyPaid();
    const n = nextAttempt(ledger);
    const merchantReference = attemptReference(order.reference, n);
    const transaction = {
      reference: merchantReference,
      currency: order.currency,
      amount: order.amount,
    };
    const urls = { ...ctx.options.redirectUrls!, notify: `${ctx.publicUrl}/webhooks/notify` };
    // The merchant's own consumer data wins over what the browser typed.
    const mergedConsumer =
      consumer || order.consumer ? { ...consumer, ...order.consumer } : undefined;
    const gateway = await ctx.gateway();
    const options = clientIp ? { forwardedFor: clientIp } : {};
    const request = {
      transaction,
      ...(mergedConsumer ? { consumer: mergedConsumer } : {}),
      ...(order.affiliateMerchantId && method !== 'eft'
        ? { affiliateMerchantId: order.affiliateMerchantId }
        : {}),
    };
    const attempt: LedgerAttempt = { method, status: 'unknown', openedAt: Date.now() };
    ledger.attempts[n] = attempt;
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
          attempt.reference = found.record.reference;
          attempt.status = statusOfRecord(found.record);
          if (attempt.status === 'paid') throw alreadyPaid();
        }
        throw new CheckoutError(409, 'conflict', 'Please try again.');
      }
      if (failure.kind === 'outcome_unknown') throw error; // stays `unknown`: the next try reconciles
      delete ledger.attempts[n];
      throw error;
    }
    attempt.reference = result.reference;
    attempt.status = 'open';
    await saveSafely(ctx, {
      reference: result.reference,
      merchantReference,
      orderReference: order.reference,
      amount: order.amount,
      currency: order.currency,
      pageOrigin,
      method,
      state: pendingState(result.reference),
    });
    return {
      success: true as const,
      reference: result.reference,
      redirectUrl: result.redirectUrl,
      clientSecret: ctx.secrets.clientSecret(result.reference, merchantReference),
    };
  });
}

/** Hosted page (v3, non-ZAR), hosted redirect and instant EFT: each answers where to send the shopper. */
export function redirectRoutes(ctx: Context): Router {
  const router = express.Router();
  const guard = originGuard(ctx);
  const json = jsonBody(ctx.bodyLimitBytes);
  for (const method of ['hosted', 'redirect', 'eft'] as const) {
    router.post(
      `/${method}`,
      guard,
      json,
      asyncRoute(async (req, res) => {
        sendJson(res, 200, await startRedirect(ctx, req, method));
      }),
    );
  }
  return router;
}
