import { CheckoutError } from './errors.js';
import type { CheckoutLogger } from './logger.js';
import type { CheckoutOptions, ReconcileOptions, ReconcileSummary } from './options.js';
import { stopRetries } from './facts/delivery.js';
import { reconcile } from './use-cases/reconcile.js';
import { createContext, type Context } from './setup/context.js';
import { validateOptions } from './setup/validate-options.js';
import { errorAnswer, noSuchRoute, pageFailure } from './http/errors.js';
import { BASE_HEADERS, type HttpAnswer, type HttpExchange } from './http/exchange.js';
import { ROUTES, type Route } from './http/routes.js';
import { routeMatcher, type RouteMatch } from './http/match-route.js';
import { readBody, DEFAULT_LIMITS, type BodySource } from './http/read-body.js';
import { parserError } from './http/parser-errors.js';
import { refundWith, type RefundCommand, type RefundResult } from './use-cases/refund.js';
import { outboxHand } from './facts/refund-facts.js';
import {
  refundable,
  RefundError,
  type Refundable,
  type RefundGateway,
} from './use-cases/refundable.js';

/** What a merchant's own code calls on a checkout (beside the routes it serves). */
export interface CheckoutActions {
  /**
   * Refunds once per key with the checkout's gateway client (see `refund`); `onRefundCompleted` is
   * delivered at least once through the outbox and the sweep.
   */
  refund(command: RefundCommand): Promise<RefundResult>;
  /** What the gateway's records leave to refund on a payment. */
  refundable(reference: string): Promise<Refundable>;
}
import { useCaseOf } from './http/use-case-of.js';
import { outcomeOf } from './http/answers.js';
import { formToken, type FormToken } from './http/form-token.js';

/**
 * The checkout as an adapter serves it: the routes of the browser API, each run to an answer.
 * Built once per mount by `createCheckout` (Express) or `createCheckoutHandler` (Fetch).
 */
export interface CheckoutCore extends CheckoutActions {
  readonly routes: readonly Route[];
  /** The route of a method and a path under the mount (no query), with its decoded parameters. */
  match(method: string, path: string): RouteMatch | undefined;
  /**
   * The body the route asks for, read within its limits (JSON up to `bodyLimit`, forms 64 KiB and
   * 20 fields, webhooks 256 KiB), or a `CheckoutError` to hand to {@link fail}.
   */
  read(route: Route, source: BodySource): Promise<unknown>;
  /** The answer to a path under the mount that names no route. */
  notFound(where: { method: string; path: string }): HttpAnswer;
  /** Runs a route; a failure becomes its JSON (or, on the 3-D Secure pages, HTML) answer. */
  handle(route: Route, ex: HttpExchange): Promise<HttpAnswer>;
  /**
   * The answer for a failure the adapter met itself: a body it could not read, or an error an
   * Express body parser of the merchant's app passed on (`entity.too.large`, ...).
   */
  fail(
    route: Route | undefined,
    error: unknown,
    ex: Pick<HttpExchange, 'method'> & { path: string },
  ): HttpAnswer;
  /** Largest JSON body the browser routes take (`bodyLimit`), in bytes. */
  readonly bodyLimitBytes: number;
  /** The merchant's logger, card data redacted. */
  readonly logger: CheckoutLogger;
  /** One reconciliation sweep (see docs/contracts.md): never throws for one bad item. */
  reconcile(options?: ReconcileOptions): Promise<ReconcileSummary>;
  /**
   * Runs the sweep every `intervalMs` on an `unref()`ed timer (never keeping the process alive),
   * the first one interval from now. An adapter calls it with the merchant's `reconcileIntervalMs`.
   */
  sweepEvery(intervalMs: number): void;
  /** Stops the sweep's timer and this process's hook retries; what they were for stays in the store. */
  close(): void;
  /**
   * The token of the server-rendered card form for the browser of `cookieHeader` (a payment with no
   * script, docs/contracts.md), and the `Set-Cookie` the page's answer carries when it has none yet.
   */
  formToken(cookieHeader: string | undefined): Promise<FormToken>;
}

/**
 * Validates the options once (a mistake throws a TypeError that names it and the fix) and builds
 * the core: its dependencies and the route table. `name` is the adapter's, for those messages.
 */
export function createCheckoutCore<Req>(
  options: CheckoutOptions<Req>,
  {
    name = 'createCheckout',
    now,
    retryBaseMs,
  }: { name?: string; now?: () => number; retryBaseMs?: number } = {},
): CheckoutCore {
  const ctx: Context = createContext(validateOptions(options, name), {
    ...(now ? { now } : {}),
    ...(retryBaseMs ? { retryBaseMs } : {}),
  });
  const withBase = (answer: HttpAnswer): HttpAnswer => ({
    ...answer,
    headers: { ...BASE_HEADERS, ...answer.headers },
  });
  const failed = (
    route: Route | undefined,
    error: unknown,
    where: { method: string; path: string },
  ) => {
    // Said here, once per request, with the route: the use cases only name the code.
    if (error instanceof CheckoutError && error.code === 'store_unavailable' && error.cause)
      ctx.logger.error('store unavailable', { ...where, error: error.cause });
    return withBase(route?.page ? pageFailure(error) : errorAnswer(ctx, error, where));
  };
  const fail: CheckoutCore['fail'] = (route, error, where) =>
    failed(route, parserError(error) ?? error, { method: where.method, path: where.path });
  const limits = { ...DEFAULT_LIMITS, json: ctx.bodyLimitBytes };
  // The sweep is a use case of its own: one span, the gateway's lookups and list nested under it.
  const sweepTraced = (reconcileOptions: ReconcileOptions) =>
    ctx.telemetry.useCase('reconcile', {}, () => reconcile(reconcileOptions, ctx));
  let timer: ReturnType<typeof setInterval> | undefined;
  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return; // a slow run is not overlapped by the next tick
    sweeping = true;
    try {
      await sweepTraced({});
    } catch (error) {
      ctx.logger.error('reconcile: the scheduled sweep failed', { error });
    } finally {
      sweeping = false;
    }
  };
  const refundGateway = async (): Promise<RefundGateway> => {
    const gateway = (await ctx.gateway()) as unknown as Partial<RefundGateway>;
    if (typeof gateway.payments?.refund !== 'function' || typeof gateway.reconcile !== 'function')
      throw new RefundError(
        'gateway_unavailable',
        'The checkout’s gateway has no payments.refund or reconcile: give a GatewayClient or credentials.',
      );
    return gateway as RefundGateway;
  };
  return {
    routes: ROUTES,
    match: routeMatcher(ROUTES),
    read: (route, source) => readBody(route.body, source, limits),
    notFound: (where) => failed(undefined, noSuchRoute(), where),
    // Completed refunds go through the outbox like payment facts; pending ones onto the sweep's list.
    refund: async (command) =>
      refundWith(
        command,
        { gateway: await refundGateway(), logger: ctx.logger, store: ctx.store },
        outboxHand(ctx),
      ),
    refundable: async (reference) =>
      refundable(reference, { gateway: await refundGateway(), store: ctx.store }),
    handle(route, ex) {
      // One span per route, named after its use case; the gateway's calls nest under it.
      const [useCase, attributes] = useCaseOf(route, ex);
      return ctx.telemetry.useCase(
        useCase,
        attributes,
        async () => {
          try {
            return withBase(await route.run(ex, ctx));
          } catch (error) {
            ctx.telemetry.failed(error);
            return failed(route, error, { method: ex.method, path: route.path });
          }
        },
        (answer) => ({ status: answer.status, outcome: outcomeOf(answer.status) }),
      );
    },
    fail,
    bodyLimitBytes: ctx.bodyLimitBytes,
    logger: ctx.logger,
    reconcile: (reconcileOptions = {}) => sweepTraced(reconcileOptions),
    sweepEvery(intervalMs) {
      if (timer) clearInterval(timer);
      timer = setInterval(() => void sweep(), intervalMs);
      timer.unref?.();
    },
    formToken: (cookieHeader) => formToken(ctx, cookieHeader),
    close() {
      if (timer) clearInterval(timer);
      timer = undefined;
      stopRetries(ctx);
    },
  };
}
