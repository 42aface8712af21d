import { REDIRECT_METHODS, type RedirectMethod } from '@pg-checkout/protocol/vocabulary';
import { takeBankTurn, type PostEnd } from '../limits/bank-limits.js';
import type { Context } from '../setup/context.js';
import { callerOf } from '../setup/caller.js';
import { carryForwardPage, completionPage, methodPageCsp, type CompletionKind } from './html.js';
import { AddCardBody, CreatePaymentBody, parseBody, RedirectBody } from '../use-cases/schemas.js';
import { ipVersion } from '../limits/ip.js';
import { attemptReference } from '../order/ledger.js';
import type { OwnedPaymentState } from '../payment-state.js';
import { answerFor, CHECK_AGAIN, successStatus } from './answers.js';
import { cancelChallenge } from '../use-cases/cancel-challenge.js';
import { confirmProof, type ProofResult } from '../use-cases/confirm-proof.js';
import { confirmStep2 } from '../use-cases/confirm-step2.js';
import { payByCard } from '../use-cases/pay-by-card.js';
import { startRedirect } from '../use-cases/redirects.js';
import { deleteCard, saveCard, savedCards } from '../use-cases/saved-cards.js';
import { orderStatus, paymentStatus } from '../use-cases/status.js';
import { methodContent, sessionAttempt } from '../use-cases/three-ds-pages.js';
import { receiveWebhook } from '../use-cases/webhooks.js';
import { attemptPayment, learnOrder } from '../order/book.js';
import type { FormStart } from '../order/records.js';
import { formAnswer, FORM_ROUTES } from './form-routes.js';
import { noticePage } from './form-pages.js';
import { jsonAnswer, type HttpAnswer } from './exchange.js';
import type { Route } from './route.js';

export type { Route } from './route.js';
import { callerFor, ownedReference } from './guards.js';
import { reportRoute } from './report-route.js';

const state = (s: OwnedPaymentState) => jsonAnswer(answerFor({ state: s }).status, s);

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

export function pageAnswer(kind: CompletionKind, result?: ProofResult): HttpAnswer {
  const { status } = answerFor({ page: kind });
  const reference = result && 'reference' in result ? result.reference : undefined;
  const pageOrigin = result && 'pageOrigin' in result ? result.pageOrigin : undefined;
  const { html, csp } = completionPage(kind, reference, pageOrigin);
  return { status, headers: { ...PAGE_HEADERS, 'Content-Security-Policy': csp }, body: html };
}

const TOO_LARGE = answerFor({ code: 'payload_too_large' }).status;

/** A page route's request refused before it ran (its body too large or unreadable): still a page. */
export const pageRefusal = (error: unknown): HttpAnswer =>
  (error as { status?: unknown }).status === TOO_LARGE
    ? { ...pageAnswer('rejected'), status: TOO_LARGE }
    : pageAnswer('rejected');

const field = (body: unknown, name: string): string | undefined => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value.length > 0 && value.length <= 20_000
    ? value
    : undefined;
};

/** Whether the card form with no script started the attempt: its bank post then answers pages. */
async function formStartOf(
  ctx: Context,
  attempt: { order: string; n: number },
): Promise<FormStart | undefined> {
  try {
    return (await attemptPayment(ctx, attempt))?.form;
  } catch {
    return undefined; // a store outage must not lose the bank's post: the frame's page then
  }
}

/**
 * The bank's post on the v2 callbackUrl (`cres`) or the v1 TermUrl (`PaRes`): always a page. Its
 * turn (per session and client, per client) is taken before anything reaches the gateway.
 */
const completion =
  (version: 1 | 2): Route['run'] =>
  async (ex, ctx) => {
    const attempt = await sessionAttempt(ctx, ex.params.session);
    if (!attempt) return pageAnswer('unknown');
    const proof = version === 2 ? field(ex.body, 'cres') : field(ex.body, 'PaRes');
    const binding = version === 2 ? field(ex.body, 'threeDSSessionData') : field(ex.body, 'MD');
    if (!proof) {
      ctx.logger.warn('3-D Secure post without a proof', { version });
      return pageAnswer('rejected');
    }
    const address = ex.clientAddress && ipVersion(ex.clientAddress) ? ex.clientAddress : undefined;
    const turn = await takeBankTurn(ctx, attempt, address);
    if (!turn.granted) {
      // Refused for its turn, not for what it holds: the page posts the same proof again.
      const fields =
        version === 2
          ? { cres: proof, ...(binding !== undefined ? { threeDSSessionData: binding } : {}) }
          : { PaRes: proof, ...(binding !== undefined ? { MD: binding } : {}) };
      const { html, csp } = await carryForwardPage(fields, turn.retryAfterS);
      const { status, headers } = answerFor({
        code: 'rate_limited',
        retryAfterSeconds: turn.retryAfterS,
      });
      return {
        status,
        headers: { ...PAGE_HEADERS, 'Content-Security-Policy': csp, ...headers },
        body: html,
      };
    }
    let end: PostEnd = 'ended';
    const form = await formStartOf(ctx, attempt);
    try {
      const result = await confirmProof(ctx, {
        ...attempt,
        version,
        proof,
        ...(binding !== undefined ? { binding } : {}),
      });
      if (result.kind === 'rejected') {
        end = 'refused';
        return pageAnswer('rejected', result);
      }
      if (form && result.kind === 'done')
        return await formAnswer(
          ctx,
          result.state,
          form,
          attemptReference(attempt.order, attempt.n),
        );
      if (form)
        return noticePage(
          successStatus('ok'),
          'Checking your payment',
          'We are confirming your payment with your bank. Please do not pay again.',
          { href: form.page, label: 'Back to the shop' },
        );
      return pageAnswer(result.kind === 'waiting' ? 'checking' : 'done', result);
    } catch (error) {
      ctx.logger.error('3-D Secure completion failed; the shopper sees the result by polling', {
        error,
      });
      return pageAnswer('unavailable');
    } finally {
      await turn.finish(end);
    }
  };

const redirectRoute = (method: RedirectMethod): Route => ({
  method: 'POST',
  path: `/${method}`,
  body: 'json',
  run: async (ex, ctx) => {
    const caller = callerFor(ctx, ex, true);
    const cmd = parseBody(RedirectBody, ex.body);
    const answer = await startRedirect(method, cmd, caller, ctx);
    // A redirect that cannot start conflicts with where the order is (paid, changed, under way).
    return jsonAnswer(
      answer.success ? successStatus('ok') : answerFor({ code: 'conflict' }).status,
      answer,
    );
  },
});

const webhookRoute = (type: 'payment' | 'payout'): Route => ({
  method: 'POST',
  path: type === 'payment' ? '/webhooks/notify' : '/webhooks/payout',
  body: 'raw',
  run: async (ex, ctx) => {
    const { body, verifierStatus, retryAfterSeconds } = await receiveWebhook(type, ex.body, ctx);
    if (body.success) return jsonAnswer(successStatus('ok'), body);
    const { status, headers } = answerFor({ code: body.code, retryAfterSeconds });
    return jsonAnswer(verifierStatus ?? status, body, headers);
  },
});

/** Busiest first: a request is matched against the routes in order (no paths overlap). */
export const ROUTES: readonly Route[] = [
  {
    method: 'GET',
    path: '/config',
    body: 'none',
    run: async (ex, ctx) => {
      // Display only: no limit, no client address needed; no method chosen yet.
      const order = await callerOf(ctx, ex.request, {
        clientIp: '',
        pageOrigin: undefined,
      }).order(undefined);
      // The checkout loads the order: "charged already?" is asked now, off the Pay click (not awaited).
      void learnOrder(ctx, order.reference);
      return jsonAnswer(successStatus('ok'), {
        success: true,
        amount: order.amount,
        currency: order.currency,
        methods: ctx.methods,
        savedCards: Boolean(ctx.options.savedCards),
      });
    },
  },
  {
    method: 'POST',
    path: '/payments',
    body: 'json',
    run: async (ex, ctx) => {
      const caller = callerFor(ctx, ex, true);
      const cmd = parseBody(CreatePaymentBody, ex.body);
      return state(await payByCard(cmd, caller, ctx));
    },
  },
  {
    method: 'POST',
    path: '/payments/:reference/3dsv2/confirm',
    body: 'json',
    run: async (ex, ctx) => {
      const caller = callerFor(ctx, ex, true);
      const payment = await ownedReference(ctx, ex);
      return state(await confirmStep2(payment, caller, ctx));
    },
  },
  {
    method: 'POST',
    path: '/payments/:reference/cancel',
    body: 'json',
    run: async (ex, ctx) => {
      const caller = callerFor(ctx, ex, true);
      const payment = await ownedReference(ctx, ex);
      return state(await cancelChallenge(payment, caller, ctx));
    },
  },
  {
    method: 'GET',
    path: '/payments/:reference',
    body: 'none',
    run: async (ex, ctx) => {
      const payment = await ownedReference(ctx, ex);
      return state(await paymentStatus(payment, callerFor(ctx, ex, false), ctx));
    },
  },
  {
    method: 'GET',
    path: '/order',
    body: 'none',
    run: async (ex, ctx) => {
      const answer = await orderStatus(callerFor(ctx, ex, false), ctx);
      return jsonAnswer(
        successStatus('ok'),
        answer,
        answer.status === 'checking' ? CHECK_AGAIN : {},
      );
    },
  },
  {
    method: 'GET',
    path: '/3ds/:session/method',
    body: 'none',
    page: true,
    run: async (ex, ctx) => {
      const attempt = await sessionAttempt(ctx, ex.params.session);
      if (!attempt) return pageAnswer('unknown');
      try {
        const method = await methodContent(ctx, attempt);
        if (!method) return pageAnswer('unknown');
        return {
          status: successStatus('ok'),
          headers: {
            ...PAGE_HEADERS,
            'Content-Security-Policy': await methodPageCsp(method.content, method.frameAncestor),
          },
          body: method.content,
        };
      } catch (error) {
        // The method step is best effort: the component confirms Step 2 after its timer anyway.
        ctx.logger.warn('3-D Secure method page unavailable', { error });
        return pageAnswer('unavailable');
      }
    },
  },
  { method: 'POST', path: '/3ds/:session/callback', body: 'form', page: true, run: completion(2) },
  { method: 'POST', path: '/3ds/:session/term', body: 'form', page: true, run: completion(1) },
  ...FORM_ROUTES,
  ...REDIRECT_METHODS.map(redirectRoute),
  {
    method: 'GET',
    path: '/cards',
    body: 'none',
    run: async (ex, ctx) =>
      jsonAnswer(successStatus('ok'), {
        success: true,
        cards: await savedCards(callerFor(ctx, ex, false), ctx),
      }),
  },
  {
    method: 'POST',
    path: '/cards',
    body: 'json',
    run: async (ex, ctx) => {
      const caller = callerFor(ctx, ex, true);
      const { card } = parseBody(AddCardBody, ex.body);
      return jsonAnswer(successStatus('created'), {
        success: true,
        card: await saveCard(card, caller, ctx),
      });
    },
  },
  {
    method: 'DELETE',
    path: '/cards/:token',
    body: 'none',
    run: async (ex, ctx) => {
      const caller = callerFor(ctx, ex, true);
      await deleteCard(ex.params.token ?? '', caller, ctx);
      return jsonAnswer(successStatus('ok'), { success: true });
    },
  },
  webhookRoute('payment'),
  webhookRoute('payout'),
  reportRoute,
];
