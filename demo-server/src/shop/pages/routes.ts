import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import { formNotice, type CheckoutRouter } from '@pg-checkout/express';
import { webDist } from '../../platform/build.js';
import { escapeHtml, formatAmount } from '../../platform/html.js';
import { withNonce } from '../../platform/http/csp.js';
import { cartView } from '../cart.js';
import type { Order } from '../orders.js';
import type { Shop } from '../shop.js';
import { withRenderedCheckout } from './checkout-ssr.js';
import { withCriticalCss } from './critical-css.js';
import { scriptTagPage, testCardsPage } from './pages.js';

const built = (name: string) => readFileSync(join(webDist, name), 'utf8');

/**
 * The shop's pages: the checkout, its ESM twin, the result page, the script-tag page and the test
 * cards. Each answer carries the nonce the pages' CSP gave it (res.locals.nonce, set before these).
 */
export function shopPages({
  shop,
  checkout,
}: {
  shop: Shop;
  checkout: Pick<CheckoutRouter, 'formToken'>;
}): Router {
  const { orders, sessions } = shop;
  const pages = express.Router();
  // A page gives the browser its session cookie (signed, no row): saved cards and the order it
  // makes when the shopper acts belong to it.
  const sendBuilt = (name: string) => (req: Request, res: Response) => {
    sessions.ensure(req, res);
    res.type('html').send(withNonce(built(name), String(res.locals.nonce)));
  };
  // The checkout page carries its drop-in server-rendered, with the shopper's total on Pay.
  pages.get(['/', '/index.html'], async (req, res) => {
    const session = sessions.ensure(req, res);
    const cart = cartView(await orders.current(session));
    const payLabel = `Pay ${formatAmount(cart.amount, cart.currency)}`;
    // A real form: with no script (blocked, failed, not arrived) the card still pays by a form post.
    const { token } = await checkout.formToken(req, res);
    const declined = typeof req.query.pg_declined === 'string' ? req.query.pg_declined : undefined;
    const markup = withCriticalCss(
      await withRenderedCheckout(built('index.html'), payLabel, {
        token,
        notice: formNotice(declined),
      }),
    );
    res.type('html').send(withNonce(markup, String(res.locals.nonce)));
  });
  pages.get(['/esm', '/esm.html'], sendBuilt('esm.html'));
  pages.get(['/result', '/result.html'], async (req, res) => {
    const order = await orders.current(sessions.ensure(req, res));
    res.type('html').send(withNonce(resultPage(order), String(res.locals.nonce)));
  });
  pages.get(['/script-tag', '/script-tag.html'], (req, res) => {
    sessions.ensure(req, res);
    // Its first paint after one round trip too: the skeleton's style inline, nothing that blocks paint.
    res.type('html').send(withNonce(withCriticalCss(scriptTagPage()), String(res.locals.nonce)));
  });
  pages.get('/test-cards', (_req, res) => res.type('html').send(testCardsPage()));
  return pages;
}

/**
 * The result page says a paid order's result from the server too: a shopper whose payment needed no
 * script (the card form's post) may run none here either; until then it looks again by itself.
 */
function resultPage(order: Order | undefined): string {
  const shell = built('result.html');
  const paid = order?.status === 'paid' && order.paid;
  return paid
    ? shell
        .replace(/(<h1 id="result-title">)[^<]*/, (_, open: string) => `${open}Thank you!`)
        .replace(
          /(<p id="result-detail" role="status">)/,
          (_, open: string) =>
            `${open}Your payment of ${escapeHtml(formatAmount(paid.amount, paid.currency))} went through. A confirmation follows by e-mail.`,
        )
    : shell.replace(
        '</head>',
        '<noscript><meta http-equiv="refresh" content="3"></noscript></head>',
      );
}
