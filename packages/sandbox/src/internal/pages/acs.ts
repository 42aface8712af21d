import express, { Router, type Request, type Response } from 'express';
import type { Ctx } from '../context.js';
import { escapeHtml } from '../format.js';
import { ACS_V1_PATH, ACS_V2_PATH, METHOD_PATH, decodeB64Json, issueResult } from '../three-ds.js';
import type { ThreeDSState, Txn } from '../types.js';
import { autoPost, errorPage, hiddenInputs, page } from './html.js';

/** The EMV challenge windows go down to 250x400 (01): tighter spacing there, the page scrolls inside beyond. */
const SMALL_WINDOW_STYLE =
  '<style>@media (max-width:420px),(max-height:420px){body{padding:.75rem;font-size:15px}' +
  'h1{font-size:1.1rem;margin-bottom:.5rem}p{margin:.5rem 0}button{margin-top:.75rem}}</style>';

/** One-time codes the access control pages accept (DESIGN.md). */
export const VALID_OTPS = new Set(['1234', 'test123']);

function field(req: Request, name: string): string | undefined {
  const body = req.body as Record<string, unknown> | undefined;
  const v = body?.[name];
  return typeof v === 'string' ? v : undefined;
}

function httpUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Finds the payment waiting on a challenge for this ACS transaction id, or explains why not. */
function waiting(
  ctx: Ctx,
  acsTransID: unknown,
  version: 1 | 2,
): { txn: Txn; state: ThreeDSState } | string {
  if (typeof acsTransID !== 'string') return 'The authentication request is missing or unreadable.';
  const reference = ctx.store.byThreeDSId.get(acsTransID);
  const txn = reference ? ctx.store.get(reference) : undefined;
  const state = txn?.threeDS;
  if (!txn || !state || state.transactionId !== acsTransID || state.version !== version) {
    return 'This authentication request is unknown.';
  }
  if (txn.status !== 'THREE_D_SECURE' || state.step !== 'challenge') {
    return 'This authentication is already complete.';
  }
  return { txn, state };
}

/**
 * The OTP form. Script posts it with fetch and then posts the result straight to the merchant,
 * which saves the browser one page (and one history entry); without script it is a plain form.
 */
function otpPage(action: string, txn: Txn, fields: Record<string, string>, version: 1 | 2): string {
  const amount = `${(txn.amount / 100).toFixed(2)} ${txn.currency}`;
  const script =
    `<script>(function(){var f=document.getElementById('acs-form');f.addEventListener('submit',function(e){` +
    `e.preventDefault();var d=new URLSearchParams(new FormData(f));` +
    `d.set('action',e.submitter&&e.submitter.value==='cancel'?'cancel':'submit');` +
    `fetch(f.getAttribute('action'),{method:'POST',headers:{accept:'application/json'},body:d}).then(function(r){return r.json();})` +
    `.then(function(j){if(!j.action){document.getElementById('acs-status').textContent=j.message||'Error';return;}` +
    `var o=document.createElement('form');o.method='POST';o.setAttribute('action',j.action);Object.keys(j.fields).forEach(function(k){` +
    `var i=document.createElement('input');i.type='hidden';i.name=k;i.value=j.fields[k];o.appendChild(i);});` +
    `document.body.appendChild(o);o.submit();}).catch(function(){f.submit();});});` +
    // Autofocus is ignored in a cross-origin frame: the code field takes focus when the frame gets it.
    `var c=document.getElementById('otp');c.focus();addEventListener('focus',function(){if(document.activeElement===document.body)c.focus();});})();</script>`;
  return page(
    '3-D Secure verification',
    `<h1 id="acs-title">Verify your payment</h1>` +
      `<p>Sandbox bank, 3-D Secure v${version}. Payment of <strong>${escapeHtml(amount)}</strong> with card ` +
      `${escapeHtml(txn.card?.masked ?? '')}.</p>` +
      `<p class="muted">Enter 1234 (or test123) to pass; any other code, or Cancel, fails.</p>` +
      `<form id="acs-form" method="POST" action="${escapeHtml(action)}" aria-labelledby="acs-title">${hiddenInputs(fields)}` +
      `<label for="otp">One-time code</label>` +
      `<input id="otp" name="otp" autocomplete="one-time-code" inputmode="numeric" autofocus required>` +
      `<button type="submit" name="action" value="submit">Submit</button>` +
      `<button type="submit" name="action" value="cancel" class="secondary" formnovalidate>Cancel</button>` +
      `<p id="acs-status" role="status" aria-live="polite"></p></form>${script}`,
    SMALL_WINDOW_STYLE,
  );
}

function answer(req: Request, res: Response, action: string, fields: Record<string, string>): void {
  if ((req.get('accept') ?? '').includes('application/json')) {
    res.json({ action, fields });
  } else {
    res.type('html').send(autoPost('3-D Secure complete', action, fields));
  }
}

function refuse(req: Request, res: Response, message: string): void {
  if ((req.get('accept') ?? '').includes('application/json')) res.status(400).json({ message });
  else res.status(400).type('html').send(errorPage(message));
}

export function acsRoutes(ctx: Ctx): Router {
  const router = Router();
  router.use('/_acs', express.urlencoded({ extended: false, limit: '64kb' }));

  // The method URL: it only records that the browser's data arrived, and when.
  router.post(METHOD_PATH, (req, res) => {
    const data = decodeB64Json(field(req, 'threeDSMethodData') ?? '');
    const reference =
      typeof data?.acsTransID === 'string' ? ctx.store.byThreeDSId.get(data.acsTransID) : undefined;
    const state = reference ? ctx.store.get(reference)?.threeDS : undefined;
    if (!state || state.txId !== data?.threeDSServerTransID) {
      res.status(400).type('html').send(errorPage('Unknown 3-D Secure method data.'));
      return;
    }
    state.methodReceivedAt ??= ctx.clock.now();
    res.type('html').send(page('3-D Secure method', '<p>Browser data received.</p>'));
  });

  router.post(ACS_V2_PATH, (req, res) => {
    const creq = decodeB64Json(field(req, 'creq') ?? '');
    const found = waiting(ctx, creq?.acsTransID, 2);
    if (typeof found === 'string') return refuse(req, res, found);
    const sessionData = field(req, 'threeDSSessionData') ?? '';
    found.state.challengeShownAt ??= ctx.clock.now();
    res
      .type('html')
      .send(
        otpPage(
          `${ACS_V2_PATH}/answer`,
          found.txn,
          { acsTransID: found.state.transactionId, threeDSSessionData: sessionData },
          2,
        ),
      );
  });

  router.post(`${ACS_V2_PATH}/answer`, (req, res) => {
    const found = waiting(ctx, field(req, 'acsTransID'), 2);
    if (typeof found === 'string') return refuse(req, res, found);
    const callback = httpUrl(found.state.callbackUrl);
    if (!callback) return refuse(req, res, 'The payment has no callbackUrl to return to.');
    const ok = field(req, 'action') !== 'cancel' && VALID_OTPS.has(field(req, 'otp') ?? '');
    const cres = issueResult(ctx, found.state, ok, ctx.clock.now());
    answer(req, res, callback, {
      cres,
      threeDSSessionData: field(req, 'threeDSSessionData') ?? '',
    });
  });

  router.post(ACS_V1_PATH, (req, res) => {
    const md = field(req, 'MD');
    const paReq = decodeB64Json(field(req, 'PaReq') ?? '');
    const termUrl = httpUrl(field(req, 'TermUrl'));
    if (!termUrl) return refuse(req, res, 'TermUrl is missing or not an http(s) URL.');
    if (!md || paReq?.md !== md) return refuse(req, res, 'PaReq and MD do not belong together.');
    const found = waiting(ctx, md, 1);
    if (typeof found === 'string') return refuse(req, res, found);
    found.state.challengeShownAt ??= ctx.clock.now();
    res
      .type('html')
      .send(otpPage(`${ACS_V1_PATH}/answer`, found.txn, { MD: md, TermUrl: termUrl }, 1));
  });

  router.post(`${ACS_V1_PATH}/answer`, (req, res) => {
    const md = field(req, 'MD');
    const termUrl = httpUrl(field(req, 'TermUrl'));
    if (!termUrl) return refuse(req, res, 'TermUrl is missing or not an http(s) URL.');
    const found = waiting(ctx, md, 1);
    if (typeof found === 'string') return refuse(req, res, found);
    const ok = field(req, 'action') !== 'cancel' && VALID_OTPS.has(field(req, 'otp') ?? '');
    const paRes = issueResult(ctx, found.state, ok, ctx.clock.now());
    answer(req, res, termUrl, { PaRes: paRes, MD: found.state.transactionId });
  });

  return router;
}
