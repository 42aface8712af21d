import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import {
  CheckoutError,
  type CheckoutActions,
  createCheckoutCore,
  type BodyKind,
  type CheckoutCore,
  type HttpAnswer,
  type HttpExchange,
  type ReconcileOptions,
  type ReconcileSummary,
} from '@pg-checkout/server';
import { isIP } from 'node:net';
import { jsonBody } from './internal/json-body.js';
import { formBody, rawBody } from './internal/limited-body.js';
import { parserError } from './internal/parser-errors.js';
import type { CheckoutOptions } from './options.js';

/**
 * The Express router the pg-checkout components talk to: `app.use('/checkout', createCheckout(options))`.
 * Options are validated here, once; a mistake throws a TypeError that names it. Each route is the
 * core's (`@pg-checkout/server`): this file only reads the request and writes the answer.
 */
export function createCheckout(options: CheckoutOptions): CheckoutRouter {
  const core = createCheckoutCore(options, { name: 'createCheckout' });
  const router = express.Router() as CheckoutRouter;
  router.reconcile = (reconcileOptions) => core.reconcile(reconcileOptions);
  router.close = () => core.close();
  const interval = options.reconcileIntervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS;
  if (interval !== false) core.sweepEvery(interval);
  const readers = bodyReaders(core);
  for (const route of core.routes) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'delete';
    router[method](route.path, ...readers[route.body], (req, res, next) => {
      core.handle(route, exchangeOf(req)).then((answer) => send(res, answer), next);
    });
  }
  router.use((req, res) =>
    send(
      res,
      core.fail(
        undefined,
        new CheckoutError(404, 'not_found', 'No such checkout route.'),
        where(req),
      ),
    ),
  );
  // A body the readers refused (or an error Express met) is answered by the route it was for.
  router.use(((error, req, res, next) => {
    if (res.headersSent) return next(error);
    const route = core.routes.find((r) => r.method === req.method && r.path === req.route?.path);
    send(res, core.fail(route, parserError(error) ?? error, where(req)));
  }) as express.ErrorRequestHandler);
  return Object.assign(router, { refund: core.refund, refundable: core.refundable });
}

/** How often the sweep runs unless `reconcileIntervalMs` says otherwise. */
const DEFAULT_RECONCILE_INTERVAL_MS = 5 * 60_000;

/** The router, with the merchant's actions on the checkout (`checkout.refund(...)`) and the reconciliation sweep. */
export type CheckoutRouter = Router &
  CheckoutActions & {
    /** One reconciliation sweep (see the README): also run every `reconcileIntervalMs`. */
    reconcile(options?: ReconcileOptions): Promise<ReconcileSummary>;
    /** Stops the sweep's timer and this process's hook retries (e.g. on shutdown). */
    close(): void;
  };

const where = (req: Request) => ({ method: req.method, path: req.path ?? req.url });

function bodyReaders(core: CheckoutCore): Record<BodyKind, RequestHandler[]> {
  return {
    none: [],
    json: [jsonBody(core.bodyLimitBytes)],
    form: [formBody(64 * 1024, 20)],
    raw: [rawBody(256 * 1024)],
  };
}

/**
 * The request as the core's routes read it; `request` is handed to the merchant's hooks. Only
 * Node's own request fields and the router's `params` are read, so the router also works mounted
 * in a plain Connect stack (Vite's dev server, Nuxt's) where Express's request methods are absent.
 */
function exchangeOf(req: Request): HttpExchange {
  const ip = typeof req.ip === 'string' && isIP(req.ip) ? req.ip : req.socket.remoteAddress;
  const host = headerOf(req, 'host');
  const protocol =
    typeof req.protocol === 'string'
      ? req.protocol
      : (req.socket as { encrypted?: boolean }).encrypted
        ? 'https'
        : 'http';
  return {
    request: req,
    method: req.method,
    params: (req.params ?? {}) as Record<string, string>,
    header: (name) => headerOf(req, name),
    clientAddress: ip,
    origin: host ? `${protocol}://${host}` : undefined,
    body: req.body,
  };
}

function headerOf(req: Request, name: string): string | undefined {
  const key = name.toLowerCase();
  // Express's req.get('referer') also answers Referrer; keep that.
  const value = req.headers[key] ?? (key === 'referer' ? req.headers.referrer : undefined);
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Writes an answer. No ETag: these answers are never cached, and hashing each cost CPU on the hot path. */
function send(res: Response, answer: HttpAnswer): void {
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.end(answer.body);
}
