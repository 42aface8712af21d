import express, { type Request, type Response, type Router } from 'express';
import type { Context } from '../context.js';
import { completionPage, methodPageCsp, type CompletionKind } from '../html.js';
import { orderKeys } from '../keys.js';
import { parseAttemptReference, type Ledger } from '../ledger.js';
import { loadPayment } from '../records.js';
import { confirmProof, type ProofResult } from '../confirm.js';

function sendPage(res: Response, status: number, kind: CompletionKind, result?: ProofResult): void {
  const reference = result && 'reference' in result ? result.reference : undefined;
  const pageOrigin = result && 'pageOrigin' in result ? result.pageOrigin : undefined;
  const { html, csp } = completionPage(kind, reference, pageOrigin);
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': csp,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    })
    .send(html);
}

/** The attempt a `:session` token names, or `undefined` when the token is not ours. */
function attemptOf(ctx: Context, req: Request) {
  const merchantReference = ctx.secrets.merchantReferenceOf(String(req.params.session));
  return merchantReference ? parseAttemptReference(merchantReference) : undefined;
}

const field = (body: unknown, name: string): string | undefined => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value.length > 0 && value.length <= 20_000
    ? value
    : undefined;
};

/**
 * The 3-D Secure pages: the method page, the v2 callbackUrl and the v1 TermUrl. They are shown
 * inside the bank's frame, so every answer is a readable HTML page, never JSON, whatever failed.
 */
export function threeDSRoutes(ctx: Context): Router {
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 20 });

  router.get('/3ds/:session/method', (req, res) => {
    const attempt = attemptOf(ctx, req);
    if (!attempt) return sendPage(res, 404, 'unknown');
    void (async () => {
      const raw = await ctx.store.get(orderKeys(attempt.order).ledger);
      const reference = raw
        ? (JSON.parse(raw) as Ledger).attempts[attempt.n]?.reference
        : undefined;
      const record = reference ? await loadPayment(ctx, reference) : undefined;
      const content = record?.threeDS?.tdsMethodContent;
      if (!record || !content) return sendPage(res, 404, 'unknown');
      res
        .status(200)
        .set({
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': methodPageCsp(content, record.pageOrigin ?? "'self'"),
          'Cache-Control': 'no-store',
          'Referrer-Policy': 'no-referrer',
        })
        .send(Buffer.from(content, 'utf8'));
    })().catch((error: unknown) => {
      // The method step is best effort: the component confirms Step 2 after its timer anyway.
      ctx.logger.warn('3-D Secure method page unavailable', { error });
      if (!res.headersSent) sendPage(res, 503, 'unavailable');
    });
  });

  const completion = (version: 1 | 2) => (req: Request, res: Response) => {
    const attempt = attemptOf(ctx, req);
    if (!attempt) return sendPage(res, 404, 'unknown');
    const proof = version === 2 ? field(req.body, 'cres') : field(req.body, 'PaRes');
    const binding = version === 2 ? field(req.body, 'threeDSSessionData') : field(req.body, 'MD');
    if (!proof) {
      ctx.logger.warn('3-D Secure post without a proof', { version });
      return sendPage(res, 400, 'rejected');
    }
    void confirmProof(ctx, {
      ...attempt,
      version,
      proof,
      ...(binding !== undefined ? { binding } : {}),
    })
      .then((result) => {
        if (result.kind === 'rejected') sendPage(res, 400, 'rejected', result);
        else if (result.kind === 'waiting') sendPage(res, 200, 'checking', result);
        else sendPage(res, 200, 'done', result);
      })
      .catch((error: unknown) => {
        ctx.logger.error('3-D Secure completion failed; the shopper sees the result by polling', {
          error,
        });
        if (!res.headersSent) sendPage(res, 503, 'unavailable');
      });
  };

  // A form body the parser refuses is answered as a page too.
  const formOrPage: express.RequestHandler = (req, res, next) =>
    form(req, res, (error?: unknown) => {
      if (!error) return next();
      const status = (error as { status?: unknown }).status;
      sendPage(res, status === 413 ? 413 : 400, 'rejected');
    });

  router.post('/3ds/:session/callback', formOrPage, completion(2));
  router.post('/3ds/:session/term', formOrPage, completion(1));
  return router;
}
