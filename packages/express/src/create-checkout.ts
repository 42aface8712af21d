import express, { type Request, type Response, type Router } from 'express';
import {
  type CheckoutActions,
  type FormToken,
  createCheckoutCore,
  type HttpAnswer,
  type HttpExchange,
  type ReconcileOptions,
  type ReconcileSummary,
} from '@pg-checkout/server';
import { isIP } from 'node:net';
import type { CheckoutOptions } from './options.js';

/**
 * The Express router the pg-checkout components talk to: `app.use('/checkout', createCheckout(options))`.
 * Options are validated here, once; a mistake throws a TypeError that names it. Each route is the
 * core's (`@pg-checkout/server`), which also matches and reads it: this file hands the request over
 * and writes the answer.
 */
export function createCheckout(options: CheckoutOptions): CheckoutRouter {
  const core = createCheckoutCore(options, { name: 'createCheckout' });
  const router = express.Router() as CheckoutRouter;
  router.reconcile = (reconcileOptions) => core.reconcile(reconcileOptions);
  router.close = () => core.close();
  const interval = options.reconcileIntervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS;
  if (interval !== false) core.sweepEvery(interval);
  // One middleware, not one Express route each: the core matches, reads and answers alike for every adapter.
  router.use((req, res, next) => {
    const found = core.match(req.method, pathOf(req));
    if (!found) return send(res, core.notFound(where(req)));
    req.params = found.params; // as Express's own routes filled it, for the merchant's hooks
    const header = (name: string) => headerOf(req, name);
    core
      .read(found.route, {
        header,
        bytes: req,
        parsed: alreadyRead(req) ? { value: req.body } : undefined,
      })
      .then(
        (body) => core.handle(found.route, exchangeOf(req, found.params, body)),
        (error: unknown) => core.fail(found.route, error, where(req)),
      )
      .then((answer) => send(res, answer), next);
  });
  // An error a body parser of the merchant's app met on its way here is answered by its route.
  router.use(((error, req, res, next) => {
    if (res.headersSent) return next(error);
    send(res, core.fail(core.match(req.method, pathOf(req))?.route, error, where(req)));
  }) as express.ErrorRequestHandler);
  router.formToken = async (req, res) => {
    const { setCookie, ...token } = await core.formToken(headerOf(req, 'cookie'));
    if (setCookie) res.append('Set-Cookie', setCookie);
    return token;
  };
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
    /**
     * For the page that server-renders the card form (`<pg-checkout form-token>`): where it posts, its
     * hidden field and token; sets the browser's form cookie on `res` when it has none. A card payment
     * then works with no JavaScript at all (docs/contracts.md).
     */
    formToken(req: Request, res: Response): Promise<Omit<FormToken, 'setCookie'>>;
  };

const where = (req: Request) => ({ method: req.method, path: req.path ?? req.url });

/** The path under the mount, without its query: `req.url` is relative to the mount in Express and Connect. */
const pathOf = (req: Request) => {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/** Read already by a parser of the merchant's app: body-parser 1 marks `_body`, 2 leaves the stream ended. */
const alreadyRead = (req: Request) =>
  Boolean((req as Request & { _body?: boolean })._body) || req.readableEnded;

/**
 * The request as the core's routes read it; `request` is handed to the merchant's hooks. Only
 * Node's own request fields are read (`params` are the core matcher's), so the router also works mounted
 * in a plain Connect stack (Vite's dev server, Nuxt's) where Express's request methods are absent.
 */
function exchangeOf(req: Request, params: Record<string, string>, body: unknown): HttpExchange {
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
    params,
    header: (name) => headerOf(req, name),
    clientAddress: ip,
    origin: host ? `${protocol}://${host}` : undefined,
    body,
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
