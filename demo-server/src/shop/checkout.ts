import type { Express, Request, RequestHandler } from 'express';
import { PAYMENT_METHODS } from '@pg-checkout/protocol/vocabulary';
import {
  CheckoutError,
  createCheckout,
  type CheckoutLogger,
  type CheckoutOptions,
  type CheckoutRouter,
  type PaymentEvent,
  type ResolveOrderContext,
} from '@pg-checkout/express';
import type { ConnectedGateway } from '../platform/gateway.js';
import type { DemoMetrics } from '../platform/metrics/metrics.js';
import { handlePaymentWebhook } from './notifications.js';
import {
  amountIn,
  cartLines,
  cartTotal,
  chargedForOther,
  CURRENCY,
  type OrderPayment,
} from './orders.js';
import { pageReportLog } from './page-report-log.js';
import { refundSecondPayment } from './second-payment.js';
import type { Shop } from './shop.js';
import { webhookLog } from './webhook-log.js';

/**
 * The order an anonymous visitor sees before acting (GET {mount}/config shows its amount). It is
 * no row and never paid: every route that pays makes the shopper's own order first.
 */
const PREVIEW_REFERENCE = 'order-preview';

export interface CheckoutDeps {
  shop: Shop;
  gateway: Pick<ConnectedGateway, 'client' | 'secret'>;
  /** The shop's public origin: where the gateway sends the shopper back to. */
  origin: string;
  /** RATE_LIMIT_PER_IP, passed on to the middleware's own limit when set. */
  rateLimitPerIp: number | false | undefined;
  log: (line: string) => void;
  logger: CheckoutLogger;
  meterProvider: DemoMetrics['meterProvider'];
}

/**
 * Mounts the checkout on /checkout: the shopper's order, how each payment the gateway decides is
 * recorded, the webhooks, and refunds made from the back office. Answers the checkout's router, whose
 * form token the checkout page and whose refunds the back office use.
 */
export function mountCheckout(app: Express, deps: CheckoutDeps): CheckoutRouter {
  const { shop, gateway, origin, rateLimitPerIp } = deps;
  app.use('/checkout/webhooks', recordRefusedWebhooks);
  const checkout: CheckoutRouter = createCheckout({
    gateway: gateway.client,
    webhookSecret: gateway.secret,
    publicUrl: `${origin}/checkout`,
    environment: 'development',
    resolveOrder: (req, context) => resolveOrder(shop, req, context),
    methods: [...PAYMENT_METHODS],
    // Authorize at checkout, capture from the back office when the order ships.
    autoExecute: false,
    redirectUrls: {
      success: `${origin}/result?outcome=success`,
      cancel: `${origin}/result?outcome=cancel`,
      error: `${origin}/result?outcome=error`,
    },
    ...(rateLimitPerIp === undefined
      ? {}
      : { rateLimit: rateLimitPerIp === false ? false : { perIp: rateLimitPerIp } }),
    // Saved cards belong to the browser session (a signed cookie), across its orders.
    savedCards: {
      shopperId: (req) => {
        const session = shop.sessionOf(req);
        // Dashed like every id the shop makes: no long digit run reaches a log (platform/ids.ts).
        return session ? `demo-${session.slice(0, 32).match(/.{8}/g)!.join('-')}` : undefined;
      },
    },
    logger: deps.logger,
    telemetry: { meterProvider: deps.meterProvider },
    onPageIntegrityReport: (report) => pageReportLog.add(report),
    ...paymentHooks(deps),
    onRefundCompleted: (e) => markRefunded(deps, checkout, e),
  });
  app.use('/checkout', checkout);
  return checkout;
}

/** Records every webhook the middleware refused (a 4xx), beside the ones it accepted. */
const recordRefusedWebhooks: RequestHandler = (req, res, next) => {
  res.on('finish', () => {
    if (res.statusCode >= 400 && res.statusCode < 500) {
      webhookLog.add({
        receivedAt: new Date(),
        kind: req.path.includes('payout') ? 'payout' : 'payment',
        verified: false,
        reason: `answered ${res.statusCode}`,
      });
    }
  });
  next();
};

/**
 * The shopper's order. Reads (GET {mount}/config) see the current order or, with none, a preview
 * that writes nothing; a route that pays makes the order first (the shopper acted), under the
 * new-order limit. The hosted page charges the total in USD: the checkout says which method pays.
 */
async function resolveOrder(shop: Shop, req: Request, { method }: ResolveOrderContext) {
  const session = shop.sessionOf(req);
  let order = session ? await shop.orders.current(session) : undefined;
  // A read writes nothing (HTTP's safe methods); a POST is the shopper acting.
  const pays = req.method !== 'GET' && req.method !== 'HEAD';
  if (pays && (!order || order.status === 'refunded')) {
    if (!shop.mayStartOrder(req))
      throw new CheckoutError(
        429,
        'rate_limited',
        'Too many new orders from your network. Wait a minute and try again.',
        { 'Retry-After': '60' },
      );
    order = (await shop.orders.ensure(shop.sessions.ensure(req, req.res!), cartLines(1))).order;
  }
  const amount = order?.total ?? cartTotal(cartLines(1));
  const currency = method === 'hosted' ? 'USD' : CURRENCY;
  return {
    amount: amountIn(amount, currency)!,
    currency,
    reference: order?.reference ?? PREVIEW_REFERENCE,
    consumer: {
      name: 'Thandi',
      surname: 'Nkosi',
      email: 'thandi@example.com',
      consumerAddress: {
        addressLineOne: '1 Long Street',
        city: 'Cape Town',
        postCode: '8001',
        country: 'ZA',
      },
    },
  };
}

/** The hooks by which the middleware says the gateway decided a payment, and the webhooks. */
function paymentHooks({
  shop,
  gateway: { client },
  log,
}: CheckoutDeps): Pick<
  CheckoutOptions,
  'onPaymentCompleted' | 'onPaymentFailed' | 'onPaymentPending' | 'onWebhook'
> {
  const refundSecond = (payment: OrderPayment) =>
    refundSecondPayment(client, shop.orders, payment, log);
  const record = (e: PaymentEvent, status: OrderPayment['status']) =>
    recordPayment(shop, e, status, log, refundSecond);
  return {
    onPaymentCompleted: (e) => record(e, 'paid'),
    onPaymentFailed: (e) => record(e, 'failed'),
    onPaymentPending: (e) => record(e, 'pending'),
    onWebhook: async (event) => {
      if (event.type === 'payment') {
        // The hash covers the reference only: the gateway's record decides, and the order is the
        // one the shop recorded the payment for, or the verified order of its merchant reference.
        await handlePaymentWebhook(event, {
          orders: shop.orders,
          client,
          log,
          onSecondPayment: refundSecond,
        });
        return;
      }
      webhookLog.add({
        receivedAt: new Date(),
        kind: 'payout',
        verified: true,
        reference: String(event.payload.payoutId),
        amount: event.payload.totalAmount,
      });
      log(`[shop] webhook payout verified`);
    },
  };
}

/** The gateway decided a payment of one of the shop's orders: the order records it. */
async function recordPayment(
  { orders }: Shop,
  e: PaymentEvent,
  status: OrderPayment['status'],
  log: (line: string) => void,
  refundSecond: (payment: OrderPayment) => Promise<unknown>,
): Promise<void> {
  log(
    `[shop] payment ${e.reference} ${status === 'paid' ? 'completed' : status} (${e.merchantReference})`,
  );
  const order = await orders.byReference(e.orderReference);
  if (!order) {
    log(
      `[shop] WARN payment ${e.reference} is for ${e.orderReference}, which is no order of this shop`,
    );
    return;
  }
  await orders.recordPayment({
    reference: e.reference,
    orderId: order.id,
    merchantReference: e.merchantReference,
    amount: e.amount,
    currency: e.currency,
    status,
  });
  if (status !== 'paid') return;
  const outcome = await orders.markPaid(order.id, {
    reference: e.reference,
    amount: e.amount,
    currency: e.currency,
  });
  if (outcome === 'changed')
    log(`[shop] WARN ${order.reference} ${chargedForOther((await orders.byId(order.id))!)}`);
  if (outcome === 'second-payment') {
    log(
      `[shop] WARN ${order.reference} was already paid by ${order.paid?.reference}; ${e.reference} is a second charge to refund`,
    );
    const payment = (await orders.paymentsOf(order.id)).find((p) => p.reference === e.reference);
    if (payment) await refundSecond(payment);
  }
}

/**
 * A refund made from the back office that the gateway completed: a payment refunded in full (the
 * gateway's record says REFUNDED) refunds its order. Idempotent, as hooks must be.
 */
async function markRefunded(
  { shop: { orders }, log }: CheckoutDeps,
  checkout: Pick<CheckoutRouter, 'refundable'>,
  e: { merchantReference: string; paymentReference: string },
): Promise<void> {
  log(`[shop] refund ${e.merchantReference} of ${e.paymentReference} completed`);
  const order = await orders.byPayment(e.paymentReference);
  if (!order) return;
  const { payment } = await checkout.refundable(e.paymentReference);
  if (payment.status === 'REFUNDED' && (await orders.markRefunded(order.id, payment.reference)))
    log(`[shop] ${order.reference} refunded (${payment.reference})`);
}
