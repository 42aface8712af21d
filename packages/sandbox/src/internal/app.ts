import express, { type NextFunction, type Request, type Response } from 'express';
import type { Ctx } from './context.js';
import { logError } from './logger.js';
import { ApiError, FORMAT_ERROR } from './errors.js';
import type { FaultInjector } from './faults.js';
import { acsRoutes } from './pages/acs.js';
import { dashboardPage, testCardsPage } from './pages/dashboard.js';
import { payRoutes } from './pages/pay.js';
import { hostedRoutes } from './routes/hosted.js';
import { inspectionRoutes } from './routes/inspection.js';
import { lookupRoutes } from './routes/lookups.js';
import { executeRefundRoutes } from './routes/execute-refund.js';
import { paymentRoutes } from './routes/payments.js';
import { transferRoutes } from './routes/transfers.js';
import { vaultRoutes } from './routes/vault.js';
import { authenticate } from './signature.js';

/**
 * API failures are HTTP 200 with `success: false`, as the gateway's own clients read them (its PHP client
 * treats any status but 200 and 403 as an unknown error); `failureStatus: '4xx'` answers 400/404/409.
 * The unsigned /_sandbox routes keep their 4xx either way.
 */
export function failureStatus(ctx: Ctx, req: Request, status: number): number {
  if (ctx.settings.failureStatus === '4xx' || !req.originalUrl.startsWith('/pg/api/'))
    return status;
  return 200;
}

/** The Express app: API under /pg/api (signed), pages and /_sandbox (unsigned), one JSON error handler. */
export function buildApp(ctx: Ctx, faults: FaultInjector): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use((req, res, next) => {
    const started = Date.now();
    res.on('finish', () =>
      ctx.logger.info(`${req.method} ${req.path} ${res.statusCode} ${Date.now() - started}ms`),
    );
    next();
  });

  // Pages and answers are per payment and per moment: Back must not replay a cached form.
  app.use((_req, res, next) => {
    res.set({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    next();
  });

  app.use('/pg/api', faults.middleware());
  app.use('/pg/api', express.raw({ type: () => true, limit: '1mb' }));
  app.use('/pg/api', authenticate(ctx));

  const validate = (_req: Request, res: Response): void => {
    res.json({
      success: true,
      merchant: ctx.store.merchants.get(1000)?.name ?? 'Sandbox Merchant',
    });
  };
  app.get('/pg/api/v2/util/validate', validate);
  app.post('/pg/api/v2/util/validate', validate);
  app.use(paymentRoutes(ctx));
  app.use(executeRefundRoutes(ctx));
  app.use(hostedRoutes(ctx));
  app.use(lookupRoutes(ctx));
  app.use(vaultRoutes(ctx));
  app.use(transferRoutes(ctx));
  app.use(acsRoutes(ctx));
  app.use(payRoutes(ctx));
  app.use(inspectionRoutes(ctx, faults));
  app.get('/_sandbox/test-cards', (_req, res) => {
    res.type('html').send(testCardsPage());
  });
  app.get('/', (_req, res) => {
    res.type('html').send(dashboardPage(ctx.token));
  });

  app.use((req: Request, res: Response) => {
    res
      .status(404)
      .json({ success: false, message: `No endpoint ${req.method} ${req.path}`, code: -1 });
  });

  // Express 5 passes async rejections here; anything not an ApiError is our bug, still answered as JSON.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return;
    if (err instanceof ApiError) {
      res.status(failureStatus(ctx, req, err.status)).json(err.toBody());
      return;
    }
    const e = err as { status?: number; type?: string; message?: string };
    if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
      // A body over the limit keeps its 413 (a transport limit); an unreadable request is malformed.
      const tooLarge = e.type === 'entity.too.large';
      res.status(tooLarge ? e.status : failureStatus(ctx, req, e.status)).json({
        success: false,
        message: tooLarge ? 'The request body is too large' : 'The request could not be read',
        code: -1,
        originalErrorCode: FORMAT_ERROR,
      });
      return;
    }
    logError(
      ctx.logger,
      `${req.method} ${req.path} failed: ${err instanceof Error ? err.message : String(err)}`,
    );
    res.status(500).json({ success: false, message: 'Internal sandbox error', code: -1 });
  });
  return app;
}
