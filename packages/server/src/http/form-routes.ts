/**
 * A card payment with no script (docs/contracts.md, issue 36): the server-rendered form posts here, and
 * every answer is a page or a 303. The money rules are `payByCard`'s and `confirmStep2`'s, unchanged.
 */
import type { ThreeDSAction } from '@pg-checkout/protocol/browser';
import { brandOf } from '../cards/brand.js';
import { CheckoutError } from '../errors.js';
import { attemptPayment } from '../order/book.js';
import type { FormStart } from '../order/records.js';
import type { PaymentState } from '../payment-state.js';
import type { Context } from '../setup/context.js';
import { callerOf } from '../setup/caller.js';
import { confirmStep2 } from '../use-cases/confirm-step2.js';
import { payByCard } from '../use-cases/pay-by-card.js';
import { CreatePaymentBody, parseBody, type CreatePaymentCommand } from '../use-cases/schemas.js';
import { sessionAttempt } from '../use-cases/three-ds-pages.js';
import type { HttpAnswer, HttpExchange } from './exchange.js';
import { bankPage, methodStepPage, noticePage, seeOther } from './form-pages.js';
import { formBrowserOf, FORM_FIELD } from './form-token.js';
import { callerFor, clientIpOf } from './guards.js';
import { routeUrl } from '../order/route-url.js';
import { answerFor, outcomeOf, successStatus } from './answers.js';
import type { Route } from './route.js';

/** A top-level challenge has the whole window; the page has no script to measure the screen. */
const FORM_SCREEN = { screenWidth: 1280, screenHeight: 800 } as const;

const text = (body: unknown, name: string): string => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value.length <= 200 ? value : '';
};

/** The form's fields as the JSON route's command, read by the same schema (no money field exists). */
function formCommand(body: unknown): CreatePaymentCommand {
  const number = text(body, 'number').replace(/[\s-]/g, '');
  const expiry = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(text(body, 'expiry'));
  const year = expiry ? Number(expiry[2]) : 0;
  return parseBody(CreatePaymentBody, {
    card: {
      number,
      cardHolder: text(body, 'holder'),
      expiryMonth: expiry ? Number(expiry[1]) : 0,
      expiryYear: year < 100 ? 2000 + year : year,
      cvv: text(body, 'cvv').trim(),
      type: brandOf(number) ?? 'unknown',
    },
    ...FORM_SCREEN,
  });
}

/** The page the form was on (its `Referer`, when on the checked origin), else the origin's root. */
function formPage(ex: HttpExchange, pageOrigin: string): string {
  const referer = ex.header('referer');
  if (referer && URL.canParse(referer)) {
    const url = new URL(referer);
    if (url.origin === pageOrigin) {
      url.searchParams.delete('pg_declined');
      url.hash = '';
      return url.href;
    }
  }
  return `${pageOrigin}/`;
}

/** Back to the form, with the code whose sentence the shop shows above it (`formNotice`). */
const backWith = (page: string, code: string): HttpAnswer => {
  const url = new URL(page);
  url.searchParams.set('pg_declined', code);
  return seeOther(url.href);
};

async function threeDSAnswer(
  ctx: Context,
  threeDS: ThreeDSAction,
  merchantReference: string,
  mount: string,
): Promise<HttpAnswer> {
  if (threeDS.version === 1)
    return bankPage(threeDS.acsUrl, {
      PaReq: threeDS.paReq,
      MD: threeDS.md,
      TermUrl: threeDS.termUrl,
    });
  if (threeDS.step === 'challenge')
    return bankPage(threeDS.acsUrl, {
      creq: threeDS.creq,
      threeDSSessionData: threeDS.threeDSSessionData,
    });
  const session = await ctx.secrets.sessionToken(merchantReference);
  const next = routeUrl(mount, 'GET /form/:session/continue', { session });
  return methodStepPage(threeDS.tdsMethodContent, next);
}

/**
 * What a form payment's state answers: the shop's result page, the next bank step, or the form again.
 * `mount` is where this browser reached the middleware (its form cookie is that origin's).
 */
export async function formAnswer(
  ctx: Context,
  state: PaymentState,
  form: FormStart,
  merchantReference: string,
  mount = ctx.publicUrl,
): Promise<HttpAnswer> {
  if (state.status === 'approved') {
    const success = ctx.options.redirectUrls?.success;
    return success
      ? seeOther(success)
      : noticePage(
          successStatus('ok'),
          'Payment approved',
          'Thank you. Your payment was approved.',
        );
  }
  if (state.status === 'authenticating')
    return threeDSAnswer(ctx, state.threeDS, merchantReference, mount);
  if (state.status === 'pending')
    return noticePage(
      successStatus('ok'),
      'Checking your payment',
      'We are confirming your payment. Please do not pay again.',
    );
  return backWith(form.page, state.code);
}

/** The middleware's URL on the origin this request reached it by (a page's own origin, its cookie's). */
const mountOf = (ctx: Context, ex: HttpExchange): string =>
  ex.origin ? ex.origin + new URL(ctx.publicUrl).pathname : ctx.publicUrl;

const expired = (page: string) =>
  noticePage(
    answerFor({ code: 'forbidden' }).status,
    'This form has expired',
    'Nothing was charged. Please go back to the checkout, reload it and pay again.',
    { href: page, label: 'Back to the checkout' },
  );

/** `POST {mount}/form/pay`: origin, client address, form token, then the card payment itself. */
const payRoute: Route = {
  method: 'POST',
  path: '/form/pay',
  body: 'form',
  page: true,
  run: async (ex, ctx) => {
    let caller;
    try {
      caller = callerFor(ctx, ex, true);
    } catch (error) {
      if (!(error instanceof CheckoutError)) throw error;
      return noticePage(
        error.status,
        'This payment was refused',
        error.code === 'forbidden_origin'
          ? 'This form did not come from the shop’s checkout page. Nothing was charged.'
          : error.message,
      );
    }
    const page = formPage(ex, caller.pageOrigin!);
    const browser = formBrowserOf(ex.header('cookie'));
    if (!browser || !(await ctx.secrets.formTokenFits(browser, text(ex.body, FORM_FIELD)))) {
      ctx.logger.warn(
        'form payment refused: its form token is missing, expired or not this browser’s',
      );
      return expired(page);
    }
    const form: FormStart = { browser, page };
    try {
      const state = await payByCard(formCommand(ex.body), caller, ctx, { form });
      const merchantReference =
        state.reference && state.clientSecret
          ? await ctx.secrets.ownsPayment(state.reference, state.clientSecret)
          : undefined;
      return await formAnswer(ctx, state, form, merchantReference ?? '', mountOf(ctx, ex));
    } catch (error) {
      if (error instanceof CheckoutError && outcomeOf(error.status) !== 'fault')
        return backWith(page, error.code);
      throw error;
    }
  },
};

/** `GET {mount}/form/:session/continue`: the method step's refresh, three seconds on: Step 2, then a page. */
const continueRoute: Route = {
  method: 'GET',
  path: '/form/:session/continue',
  body: 'none',
  page: true,
  run: async (ex, ctx) => {
    const attempt = await sessionAttempt(ctx, ex.params.session);
    const record = attempt ? await attemptPayment(ctx, attempt) : undefined;
    if (!record?.form)
      return noticePage(
        answerFor({ code: 'not_found' }).status,
        'This link has expired',
        'Please go back to the checkout to see your order.',
        { href: `${ctx.publicOrigin}/`, label: 'Back to the checkout' },
      );
    if (formBrowserOf(ex.header('cookie')) !== record.form.browser)
      return expired(record.form.page);
    const caller = callerOf(ctx, ex.request, {
      clientIp: clientIpOf(ctx, ex),
      pageOrigin: record.pageOrigin,
    });
    try {
      const state = await confirmStep2(record, caller, ctx);
      return await formAnswer(ctx, state, record.form, record.merchantReference, mountOf(ctx, ex));
    } catch (error) {
      if (error instanceof CheckoutError && outcomeOf(error.status) !== 'fault')
        return backWith(record.form.page, error.code);
      throw error;
    }
  },
};

export const FORM_ROUTES: readonly Route[] = [payRoute, continueRoute];
