import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express, { type Express } from 'express';
import { elementsDist, repoRoot, webDist } from '../build.js';
import { page } from '../html.js';
import { compressedStatic, compressSent } from './compress.js';
import { errorHandler } from './errors.js';

/** Listens on `port` (0: a free one) and answers the port it got. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** Stops taking requests, drops the connections still open, and resolves once the server closed. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * The Express app the shop's routes hang on: who may say the client's address, a wait for the pages
 * while `npm start` still builds them, and compression of what it answers.
 */
export function baseApp(options: {
  trustProxy: string | number | false;
  assetsReady?: Promise<void> | undefined;
}): Express {
  const app = express();
  app.disable('x-powered-by');
  // Which hops may say the client's address and scheme (req.ip, req.secure and so Secure cookies).
  app.set('trust proxy', options.trustProxy);
  // Started while the pages build: a request waits for them (a second or two) rather than failing.
  const { assetsReady } = options;
  if (assetsReady)
    app.use((_req, _res, next) => {
      assetsReady.then(
        () => next(),
        (error: unknown) => next(error),
      );
    });
  // Pages and the shop's JSON leave compressed when the browser asks (files: compressedStatic below).
  app.use(compressSent());
  return app;
}

/** The built files: the pages' assets, shop.css and the elements' scripts. */
export function serveFiles(app: Express): void {
  // Vite's names carry a content hash: cached for a year. The elements' and shop.css's names do not.
  app.use('/assets', compressedStatic(join(webDist, 'assets'), { immutable: true }));
  const shopStyle = compressedStatic(join(repoRoot, 'demo-server/web/src'), { immutable: false });
  app.get('/shop.css', shopStyle);
  app.use('/elements', compressedStatic(elementsDist, { immutable: false }));
  app.use('/elements', express.static(elementsDist));
  app.get('/favicon.ico', (_req, res) => res.status(204).end());
}

/** The last two handlers: a page for what no route answered, and the error handler. */
export function answerTheRest(app: Express, log: (line: string) => void): void {
  app.use((_req, res) => {
    res
      .status(404)
      .type('html')
      .send(
        page({
          title: 'Not found',
          body: `<h1>Not found</h1><p><a href="/">Back to the shop</a></p>`,
        }),
      );
  });
  app.use(errorHandler(log));
}
