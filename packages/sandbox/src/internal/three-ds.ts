import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Ctx } from './context.js';
import { escapeHtml } from './format.js';
import type { ThreeDSState, Txn } from './types.js';

export const ACS_V1_PATH = '/_acs/v1';
export const ACS_V2_PATH = '/_acs/v2/challenge';
export const METHOD_PATH = '/_acs/v2/method';

export function startThreeDS(
  ctx: Ctx,
  txn: Txn,
  version: 1 | 2,
  step: ThreeDSState['step'],
): ThreeDSState {
  const state: ThreeDSState = { version, step, transactionId: randomUUID() };
  if (version === 2 && step === 'method') state.txId = randomUUID();
  if (version === 2 && step === 'challenge')
    state.sessionData = randomBytes(16).toString('base64url');
  txn.threeDS = state;
  ctx.store.byThreeDSId.set(state.transactionId, txn.reference);
  return state;
}

/** Moves a v2 session from the method step to the challenge step. */
export function toChallenge(state: ThreeDSState): void {
  state.step = 'challenge';
  state.sessionData = randomBytes(16).toString('base64url');
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

export function decodeB64Json(value: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export function creqFor(state: ThreeDSState): string {
  return b64({
    threeDSServerTransID: state.txId ?? state.transactionId,
    acsTransID: state.transactionId,
    messageType: 'CReq',
    messageVersion: '2.2.0',
    challengeWindowSize: '05',
  });
}

export function paReqFor(state: ThreeDSState): string {
  return b64({ md: state.transactionId, messageType: 'PAReq' });
}

/** Step 2 shape: all six fields, unused ones null. */
export function step2Shape(base: string, state: ThreeDSState): Record<string, unknown> {
  return {
    tdsMethodContent: methodContent(base, state),
    txId: state.txId ?? null,
    transactionId: state.transactionId,
    sessionData: null,
    acsUrl: null,
    creq: null,
  };
}

/** Step 3 shape: tdsMethodContent and txId null. */
export function step3Shape(base: string, state: ThreeDSState): Record<string, unknown> {
  return {
    tdsMethodContent: null,
    txId: null,
    transactionId: state.transactionId,
    sessionData: state.sessionData ?? null,
    acsUrl: `${base}${ACS_V2_PATH}`,
    creq: creqFor(state),
  };
}

export function v1Shape(base: string, state: ThreeDSState): Record<string, unknown> {
  return {
    acsUrl: `${base}${ACS_V1_PATH}`,
    transactionId: state.transactionId,
    paReq: paReqFor(state),
  };
}

/**
 * The method fragment: a hidden iframe, a form targeting it and an inline script that fills in
 * browser data and submits. Ids carry the txId so two fragments on one page do not collide.
 */
export function methodContent(base: string, state: ThreeDSState): string {
  const id = escapeHtml(state.txId ?? state.transactionId);
  const data = escapeHtml(
    b64({ threeDSServerTransID: state.txId, acsTransID: state.transactionId }),
  );
  return (
    `<iframe name="tdsMethodFrame-${id}" title="3-D Secure method" style="display:none;width:0;height:0;border:0" aria-hidden="true"></iframe>` +
    `<form id="tdsMethodForm-${id}" method="POST" action="${escapeHtml(base + METHOD_PATH)}" target="tdsMethodFrame-${id}" style="display:none">` +
    `<input type="hidden" name="threeDSMethodData" value="${data}">` +
    `<input type="hidden" name="browserScreen"><input type="hidden" name="browserLanguage"><input type="hidden" name="browserTZ">` +
    `</form>` +
    `<script>(function(){var f=document.getElementById('tdsMethodForm-${id}');if(!f)return;` +
    `try{f.browserScreen.value=screen.width+'x'+screen.height;f.browserLanguage.value=navigator.language;` +
    `f.browserTZ.value=String(new Date().getTimezoneOffset());}catch(e){}f.submit();})();</script>`
  );
}

function sign(ctx: Ctx, value: string): string {
  return createHmac('sha256', ctx.acsKey).update(value).digest('base64url');
}

/** The cres/PaRes the ACS hands back: the session id, the outcome and a nonce, signed by the sandbox. */
export function issueResult(ctx: Ctx, state: ThreeDSState, ok: boolean, now: number): string {
  state.authResult = ok ? 'Y' : 'N';
  state.resultNonce = randomBytes(9).toString('base64url');
  state.challengeCompletedAt = now;
  const body = {
    acsTransID: state.transactionId,
    threeDSServerTransID: state.txId ?? state.transactionId,
    messageType: state.version === 2 ? 'CRes' : 'PARes',
    transStatus: state.authResult,
    nonce: state.resultNonce,
  };
  const encoded = b64(body);
  return `${encoded}.${sign(ctx, encoded)}`;
}

export type ResultCheck = { ok: true; transStatus: 'Y' | 'N' } | { ok: false; reason: string };

/** Checks that a cres/PaRes was issued by this sandbox for this very transaction, and not replaced since. */
export function verifyResult(ctx: Ctx, state: ThreeDSState, value: string): ResultCheck {
  const [encoded, mac] = value.split('.');
  if (!encoded || !mac)
    return { ok: false, reason: 'is not a value issued by the access control server' };
  const expected = Buffer.from(sign(ctx, encoded));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: 'is not a value issued by the access control server' };
  }
  const body = decodeB64Json(encoded);
  if (!body || body.acsTransID !== state.transactionId) {
    return { ok: false, reason: 'belongs to another payment' };
  }
  if (body.nonce !== state.resultNonce)
    return { ok: false, reason: 'has been replaced by a newer authentication' };
  return { ok: true, transStatus: body.transStatus === 'Y' ? 'Y' : 'N' };
}
