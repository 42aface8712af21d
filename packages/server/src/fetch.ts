import { createCheckoutCore, type CheckoutActions } from './core.js';
import type { HttpAnswer, HttpExchange } from './http/exchange.js';
import type { CheckoutOptions, ReconcileOptions, ReconcileSummary } from './options.js';

import type { FormToken } from './http/form-token.js';

/** Options of {@link createCheckoutHandler}: the checkout's, with the Fetch API `Request` handed to your hooks. */
export interface CheckoutHandlerOptions extends CheckoutOptions<Request> {
  /**
   * The shopper's IP address for a request, when the caller of the handler does not pass one
   * (the Fetch API's `Request` carries none). Read it from what your server or its proxy sets;
   * a request without a valid address is refused as a setup error (503 `misconfigured`).
   */
  clientAddress?: (request: Request) => string | undefined;
}

/** Per call: what only the server around the handler knows. */
export interface HandlerContext {
  /** The client's IP address: SvelteKit `getClientAddress()`, Nitro `getRequestIP(event)`, ... */
  clientAddress?: string | undefined;
}

/** `(request) => Response` for any server that speaks the Fetch API. */
export type CheckoutHandler = (request: Request, context?: HandlerContext) => Promise<Response>;

/**
 * The reconciliation sweep beside the handler: call `reconcile()` from a cron on runtimes without
 * long-lived timers (see docs/contracts.md).
 */
export interface CheckoutSweep {
  /** One reconciliation sweep; never throws for one bad item. */
  reconcile(options?: ReconcileOptions): Promise<ReconcileSummary>;
  /** Stops the sweep's timer and this process's hook retries. */
  close(): void;
}

/**
 * The same routes as the Express router, as one Fetch API function, for Next.js route handlers,
 * SvelteKit, Nuxt/Nitro, Hono, React Router resource routes, Deno or Bun. It answers requests
 * under the path of `publicUrl` (`https://shop.example/checkout` -> `/checkout/...`) and 404 for
 * any other path. Options are validated here, once.
 */
export function createCheckoutHandler(
  options: CheckoutHandlerOptions,
): CheckoutHandler & CheckoutSweep & CheckoutActions & FormTokens {
  const { clientAddress, ...checkout } = options;
  const core = createCheckoutCore<Request>(checkout, { name: 'createCheckoutHandler' });
  const mount = new URL(options.publicUrl).pathname.replace(/\/+$/, '');
  // Not every runtime keeps timers between requests: the sweep runs on one only when asked.
  if (typeof options.reconcileIntervalMs === 'number') core.sweepEvery(options.reconcileIntervalMs);

  const handle = async (request: Request, context: HandlerContext = {}): Promise<Response> => {
    const url = new URL(request.url);
    const where = { method: request.method, path: url.pathname };
    const found = url.pathname.startsWith(`${mount}/`)
      ? core.match(request.method, url.pathname.slice(mount.length))
      : undefined;
    if (!found) return toResponse(core.notFound(where));
    const header = (name: string) => request.headers.get(name) ?? undefined;
    let body: unknown;
    try {
      body = await core.read(found.route, { header, bytes: request.body });
    } catch (error) {
      return toResponse(core.fail(found.route, error, where));
    }
    const exchange: HttpExchange = {
      request,
      method: request.method,
      params: found.params,
      header,
      clientAddress: context.clientAddress ?? clientAddress?.(request),
      origin: url.origin,
      body,
    };
    return toResponse(await core.handle(found.route, exchange));
  };
  return Object.assign(handle, {
    reconcile: (reconcileOptions?: ReconcileOptions) => core.reconcile(reconcileOptions),
    close: () => core.close(),
    refund: core.refund,
    refundable: core.refundable,
    formToken: (request: Request) => core.formToken(request.headers.get('cookie') ?? undefined),
  });
}

/** The server-rendered card form's token (a payment with no script); `setCookie` goes on the page's answer. */
export interface FormTokens {
  formToken(request: Request): Promise<FormToken>;
}

function toResponse(answer: HttpAnswer): Response {
  const { body } = answer;
  return new Response(
    body.length === 0 ? null : typeof body === 'string' ? body : new Uint8Array(body),
    {
      status: answer.status,
      headers: answer.headers,
    },
  );
}
