import express, { Router, type Request, type Response } from 'express';
import { DECLINES, readRawCard, type Decline } from '../card-input.js';
import { notify, type Ctx } from '../context.js';
import { ApiError } from '../errors.js';
import { escapeHtml } from '../format.js';
import { approve, fail } from '../money.js';
import { exchangeRate, RATES } from '../request.js';
import { transition } from '../state-machine.js';
import { ACS_V1_PATH, paReqFor, startThreeDS, verifyResult } from '../three-ds.js';
import type { Txn } from '../types.js';
import { BodyReader } from '../validate.js';
import { autoPost, errorPage, page } from './html.js';

const HOUR = 60 * 60 * 1000;

/** EFT banks on the sandbox page and what each does. */
export const EFT_BANKS = {
  'sandbox-bank': 'Sandbox Bank (pays at once)',
  'slow-bank': 'Slow Bank (pending, pays after one hour of sandbox time)',
  'declining-bank': 'Declining Bank (payment fails)',
} as const;

const money = (txn: Txn): string => `${(txn.amount / 100).toFixed(2)} ${txn.currency}`;

function cardForm(txn: Txn, action: string, error?: string): string {
  const multi = txn.hosted?.allowMultiCurrencyPurchase ? currencyChoice(txn) : '';
  return (
    `<h1>Pay ${escapeHtml(money(txn))}</h1><p class="muted">Sandbox payment page for ${escapeHtml(txn.merchantReference)}. ` +
    `Use a test card from the sandbox README.</p>` +
    (error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '') +
    `<form method="POST" action="${escapeHtml(action)}">${multi}` +
    `<label for="number">Card number</label><input id="number" name="number" autocomplete="cc-number" inputmode="numeric" required>` +
    `<label for="cardHolder">Name on card</label><input id="cardHolder" name="cardHolder" autocomplete="cc-name" required>` +
    `<div class="row"><div><label for="expiryMonth">Expiry month</label><input id="expiryMonth" name="expiryMonth" autocomplete="cc-exp-month" inputmode="numeric" required></div>` +
    `<div><label for="expiryYear">Expiry year</label><input id="expiryYear" name="expiryYear" autocomplete="cc-exp-year" inputmode="numeric" required></div>` +
    `<div><label for="cvv">Security code</label><input id="cvv" name="cvv" autocomplete="cc-csc" inputmode="numeric" required></div></div>` +
    `<button type="submit" name="action" value="pay">Pay</button>` +
    `<button type="submit" name="action" value="cancel" class="secondary" formnovalidate>Cancel</button></form>`
  );
}

/** allowMultiCurrencyPurchase: the shopper may pay in another currency at the sandbox's fixed rates. */
function currencyChoice(txn: Txn): string {
  const options = Object.keys(RATES)
    .map((code) => {
      const rate = exchangeRate(txn.currency, code) ?? 1;
      const shown = `${((txn.amount * rate) / 100).toFixed(2)} ${code}`;
      return `<option value="${code}"${code === txn.currency ? ' selected' : ''}>${escapeHtml(shown)}</option>`;
    })
    .join('');
  return `<label for="payCurrency">Pay in</label><select id="payCurrency" name="payCurrency">${options}</select>`;
}

function eftForm(txn: Txn, action: string): string {
  const options = Object.entries(EFT_BANKS)
    .map(
      ([id, label], i) =>
        `<label><input type="radio" name="bank" value="${id}"${i === 0 ? ' checked' : ''}> ${escapeHtml(label)}</label>`,
    )
    .join('');
  return (
    `<h1>Pay ${escapeHtml(money(txn))} by instant EFT</h1>` +
    `<form method="POST" action="${escapeHtml(action)}"><fieldset><legend>Choose your bank</legend>${options}</fieldset>` +
    `<button type="submit" name="action" value="pay">Continue</button>` +
    `<button type="submit" name="action" value="cancel" class="secondary">Cancel</button></form>`
  );
}

function field(req: Request, name: string): string {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v.trim() : '';
}

/** The hosted payment and EFT pages behind every redirectUrl. */
export function payRoutes(ctx: Ctx): Router {
  const router = Router();
  router.use('/pay', express.urlencoded({ extended: false, limit: '16kb' }));

  const find = (req: Request, res: Response): Txn | undefined => {
    const txn = ctx.store.get(String(req.params.reference));
    if (!txn?.hosted) {
      res.status(404).type('html').send(errorPage('This payment link is unknown.'));
      return undefined;
    }
    if (txn.status !== 'NEW' || txn.pending) {
      // Back or reload after paying lands here: say where the payment stands, never charge again.
      const state =
        txn.status === 'THREE_D_SECURE'
          ? 'waiting for 3-D Secure verification'
          : txn.pending
            ? 'waiting for the bank'
            : `already ${txn.status.toLowerCase()}`;
      res
        .status(409)
        .type('html')
        .send(page('Payment in progress', `<h1>This payment is ${escapeHtml(state)}</h1>`));
      return undefined;
    }
    return txn;
  };

  const finish = (res: Response, txn: Txn, outcome: 'success' | 'error' | 'cancel'): void => {
    res.redirect(303, txn.hosted!.urls[outcome] ?? '/');
  };

  const succeed = (res: Response, txn: Txn): void => {
    const settle = !txn.hosted!.authorize;
    approve(ctx, txn, settle);
    if (txn.hosted!.recurring && txn.card) {
      txn.recurring = true;
      txn.card.firstRecurringRef ??= txn.reference;
    }
    notify(ctx, txn, settle ? 'SETTLED' : 'AUTHORIZED');
    finish(res, txn, 'success');
  };

  const decline = (res: Response, txn: Txn, d: Decline): void => {
    fail(ctx, txn, d.message);
    notify(ctx, txn, 'FAILED');
    finish(res, txn, 'error');
  };

  const show = (req: Request, res: Response): void => {
    const txn = find(req, res);
    if (!txn) return;
    const action = `/pay/${txn.reference}`;
    res
      .type('html')
      .send(
        page('Sandbox payment', txn.kind === 'eft' ? eftForm(txn, action) : cardForm(txn, action)),
      );
  };
  router.get('/pay/:reference', show);
  router.get('/pay/:key/:reference', show);

  router.post('/pay/:reference', (req, res) => {
    const txn = find(req, res);
    if (!txn) return;
    if (field(req, 'action') === 'cancel') {
      transition(txn, 'CANCELLED', ctx.clock.now());
      txn.message = 'Cancelled by the shopper';
      return finish(res, txn, 'cancel');
    }
    if (txn.kind === 'eft') return payEft(req, res, txn);
    let parsed;
    try {
      const num = (v: string): number | string => (/^\d{1,4}$/.test(v) ? Number(v) : v);
      const reader = new BodyReader({
        number: field(req, 'number').replace(/[\s-]/g, ''),
        cardHolder: field(req, 'cardHolder'),
        expiryMonth: num(field(req, 'expiryMonth')),
        expiryYear: num(field(req, 'expiryYear')),
        cvv: field(req, 'cvv'),
      });
      parsed = readRawCard(ctx, reader);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      res
        .status(400)
        .type('html')
        .send(page('Sandbox payment', cardForm(txn, `/pay/${txn.reference}`, err.message)));
      return;
    }
    txn.card = parsed.card;
    const payCurrency = field(req, 'payCurrency');
    if (txn.hosted!.allowMultiCurrencyPurchase && payCurrency in RATES)
      txn.displayCurrency = payCurrency;
    if (parsed.decline) return decline(res, txn, parsed.decline);
    const b = parsed.card.behaviour;
    if (b === 'decline') return decline(res, txn, DECLINES.doNotHonour);
    if (b === 'insufficient-funds') return decline(res, txn, DECLINES.insufficientFunds);
    if (b === 'approve' && txn.hosted!.threeDSecure !== true) return succeed(res, txn);
    // threeDSecure: false forces 3-D Secure off; authorization still decides.
    if (txn.hosted!.threeDSecure === false) {
      return b === 'v2-challenge-then-decline'
        ? decline(res, txn, DECLINES.doNotHonour)
        : succeed(res, txn);
    }
    // The hosted page runs the card's 3-D Secure itself, through the v1-style access control page.
    transition(txn, 'THREE_D_SECURE', ctx.clock.now());
    const state = startThreeDS(ctx, txn, 1, 'challenge');
    const base = `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
    res.type('html').send(
      autoPost('3-D Secure', `${ACS_V1_PATH}`, {
        PaReq: paReqFor(state),
        MD: state.transactionId,
        TermUrl: `${base}/pay/${txn.reference}/3ds`,
      }),
    );
  });

  router.post('/pay/:reference/3ds', (req, res) => {
    const txn = ctx.store.get(String(req.params.reference));
    const state = txn?.threeDS;
    if (!txn?.hosted || !state || txn.status !== 'THREE_D_SECURE' || state.step !== 'challenge') {
      res.status(409).type('html').send(errorPage('This payment is not waiting for 3-D Secure.'));
      return;
    }
    const check = verifyResult(ctx, state, field(req, 'PaRes'));
    if (!check.ok) {
      res
        .status(400)
        .type('html')
        .send(errorPage(`PaRes ${check.reason}.`));
      return;
    }
    state.step = 'done';
    state.confirmedAt = ctx.clock.now();
    const b = txn.card?.behaviour;
    if (check.transStatus === 'N' || b === 'v2-method-auth-fails')
      return decline(res, txn, DECLINES.authFailed);
    if (b === 'v2-challenge-then-decline') return decline(res, txn, DECLINES.doNotHonour);
    succeed(res, txn);
  });

  function payEft(req: Request, res: Response, txn: Txn): void {
    const bank = field(req, 'bank');
    if (bank === 'declining-bank')
      return decline(res, txn, {
        originalErrorCode: 'fin005',
        message: 'The bank declined the payment',
      });
    if (bank === 'slow-bank') {
      txn.pending = true;
      txn.message = 'Waiting for the bank';
      notify(ctx, txn, 'NEW');
      ctx.clock.schedule(ctx.clock.now() + HOUR, () => {
        if (txn.status !== 'NEW') return;
        txn.pending = false;
        approve(ctx, txn, true);
        notify(ctx, txn, 'SETTLED');
      });
      return finish(res, txn, 'success');
    }
    if (bank !== 'sandbox-bank') {
      res
        .status(400)
        .type('html')
        .send(
          page(
            'Sandbox payment',
            `<p class="error" role="alert">Choose a bank.</p>${eftForm(txn, `/pay/${txn.reference}`)}`,
          ),
        );
      return;
    }
    succeed(res, txn);
  }

  return router;
}
