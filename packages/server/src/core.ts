import type { CheckoutLogger } from './logger.js';
import type { CheckoutOptions } from './options.js';
import { createContext, type Context } from './internal/context.js';
import { validateOptions } from './internal/validate-options.js';
import { errorAnswer } from './http/errors.js';
import { BASE_HEADERS, type HttpAnswer, type HttpExchange } from './http/exchange.js';
import { ROUTES, pageAnswer, type Route } from './http/routes.js';
import { useCaseOf } from './telemetry/index.js';

/**
 * The checkout as an adapter serves it: the routes of the browser API, each run to an answer.
 * Built once per mount by `createCheckout` (Express) or `createCheckoutHandler` (Fetch).
 */
export interface CheckoutCore {
  readonly routes: readonly Route[];
  /** Runs a route; a failure becomes its JSON (or, on the 3-D Secure pages, HTML) answer. */
  handle(route: Route, ex: HttpExchange): Promise<HttpAnswer>;
  /** The answer for a failure the adapter met itself (a body it could not read). */
  fail(
    route: Route | undefined,
    error: unknown,
    ex: Pick<HttpExchange, 'method'> & { path: string },
  ): HttpAnswer;
  /** Largest JSON body the browser routes take (`bodyLimit`), in bytes. */
  readonly bodyLimitBytes: number;
  /** The merchant's logger, card data redacted. */
  readonly logger: CheckoutLogger;
}

/**
 * Validates the options once (a mistake throws a TypeError that names it and the fix) and builds
 * the core: its dependencies and the route table. `name` is the adapter's, for those messages.
 */
export function createCheckoutCore<Req>(
  options: CheckoutOptions<Req>,
  { name = 'createCheckout', now }: { name?: string; now?: () => number } = {},
): CheckoutCore {
  const ctx: Context = createContext(validateOptions(options, name), now ? { now } : {});
  const withBase = (answer: HttpAnswer): HttpAnswer => ({
    ...answer,
    headers: { ...BASE_HEADERS, ...answer.headers },
  });
  const fail: CheckoutCore['fail'] = (route, error, where) =>
    withBase(
      route?.page
        ? pageAnswer((error as { status?: unknown }).status === 413 ? 413 : 400, 'rejected')
        : errorAnswer(ctx, error, { method: where.method, path: where.path }),
    );
  return {
    routes: ROUTES,
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
            return fail(route, error, { method: ex.method, path: route.path });
          }
        },
        (answer) => ({ status: answer.status }),
      );
    },
    fail,
    bodyLimitBytes: ctx.bodyLimitBytes,
    logger: ctx.logger,
  };
}
