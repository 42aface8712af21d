import express, { type Request, type Response, type Router } from 'express';
import type { Context } from '../context.js';
import { asyncRoute } from '../guards.js';
import { completionPage, methodPageCsp } from '../html.js';
import { loadPayment, paymentForSession, type PaymentRecord } from '../records.js';
import { confirmWithProof } from '../confirm.js';

const SESSION = /^[A-Za-z0-9_-]{20,64}$/;
const SETTLE_WAIT_MS = 5_000;

function sendPage(
  res: Response,
  status: number,
  reference: string | undefined,
  pageOrigin: string | undefined,
): void {
  const { html, csp } = completionPage(reference, pageOrigin);
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

async function sessionRecord(ctx: Context, req: Request): Promise<PaymentRecord | undefined> {
  const session = String(req.params.session);
  return SESSION.test(session) ? paymentForSession(ctx, session) : undefined;
}

const field = (body: unknown, name: string): string | undefined => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value.length > 0 && value.length <= 20_000
    ? value
    : undefined;
};

/** A duplicate post waits briefly for the first one, so the page's "done" finds a settled status. */
async function settledBy(ctx: Context, reference: string): Promise<void> {
  const deadline = Date.now() + SETTLE_WAIT_MS;
  while (Date.now() < deadline) {
    const current = await loadPayment(ctx, reference);
    if (!current || current.state.status !== 'authenticating') return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The 3-D Secure pages: the method page, the v2 callbackUrl and the v1 TermUrl. */
export function threeDSRoutes(ctx: Context): Router {
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 20 });

  router.get(
    '/3ds/:session/method',
    asyncRoute(async (req, res) => {
      const record = await sessionRecord(ctx, req);
      const content = record?.threeDS?.tdsMethodContent;
      if (!record || !content) {
        sendPage(res, 404, undefined, undefined);
        return;
      }
      res
        .status(200)
        .set({
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': methodPageCsp(content, record.pageOrigin),
          'Cache-Control': 'no-store',
          'Referrer-Policy': 'no-referrer',
        })
        .send(Buffer.from(content, 'utf8'));
    }),
  );

  const completion = (version: 1 | 2) =>
    asyncRoute(async (req, res) => {
      const record = await sessionRecord(ctx, req);
      if (!record) {
        sendPage(res, 404, undefined, undefined);
        return;
      }
      const threeDS = record.threeDS;
      const proof = version === 2 ? field(req.body, 'cres') : field(req.body, 'PaRes');
      const binding = version === 2 ? field(req.body, 'threeDSSessionData') : field(req.body, 'MD');
      const expected = version === 2 ? threeDS?.sessionData : threeDS?.transactionId;
      // A post for another payment (or without its proof) confirms nothing; the unguessable session already binds it.
      if (
        !proof ||
        threeDS?.version !== version ||
        (expected && binding !== undefined && binding !== expected)
      ) {
        ctx.logger.warn('3-D Secure post rejected', { reference: record.reference, version });
        sendPage(res, 400, undefined, undefined);
        return;
      }
      if (await ctx.store.setIfAbsent(`confirm:${record.session}`, '1', ctx.recordTtlMs)) {
        await confirmWithProof(ctx, record, version, proof);
      } else {
        await settledBy(ctx, record.reference);
      }
      sendPage(res, 200, record.reference, record.pageOrigin);
    });

  router.post('/3ds/:session/callback', form, completion(2));
  router.post('/3ds/:session/term', form, completion(1));
  return router;
}
