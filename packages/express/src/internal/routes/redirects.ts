import express, { type Request, type Router } from 'express';
import { CheckoutError } from '../../errors.js';
import type { PaymentMethodName } from '../../options.js';
import type { Context } from '../context.js';
import { attemptReference, newSession } from '../attempts.js';
import { asyncRoute, enforceLimit, originGuard, scratch, sendJson } from '../guards.js';
import { pendingState } from '../outcomes.js';
import { savePayment } from '../records.js';
import { jsonBody } from '../json-body.js';
import { parseBody, parseOrder, RedirectBody } from '../schemas.js';

type RedirectMethod = Exclude<PaymentMethodName, 'card'>;

const LABEL: Record<RedirectMethod, string> = {
  hosted: 'Hosted-page',
  redirect: 'Redirect',
  eft: 'Instant EFT',
};

async function startRedirect(ctx: Context, req: Request, method: RedirectMethod) {
  if (!ctx.methods.includes(method)) {
    throw new CheckoutError(
      404,
      'method_not_enabled',
      `${LABEL[method]} payments are not offered here.`,
    );
  }
  const { consumer } = parseBody(RedirectBody, req.body);
  const clientIp = req.ip ?? req.socket.remoteAddress ?? '';
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
  const merchantReference = attemptReference(order.reference);
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
  const options = { forwardedFor: clientIp };
  const request = {
    transaction,
    ...(mergedConsumer ? { consumer: mergedConsumer } : {}),
    ...(order.affiliateMerchantId && method !== 'eft'
      ? { affiliateMerchantId: order.affiliateMerchantId }
      : {}),
  };
  const result =
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
  await savePayment(ctx, {
    reference: result.reference,
    merchantReference,
    orderReference: order.reference,
    amount: order.amount,
    currency: order.currency,
    pageOrigin: scratch(req).pageOrigin!,
    session: newSession(),
    method,
    state: pendingState(result.reference),
  });
  return { success: true as const, reference: result.reference, redirectUrl: result.redirectUrl };
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
