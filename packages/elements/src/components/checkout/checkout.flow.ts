import type { CheckoutApi } from '../../api/client.js';
import { meaningOf } from '../../api/codes.js';
import type {
  CheckoutConfig,
  FinalPaymentState,
  PaymentMethod,
  PaymentRequest,
  PaymentState,
  ThreeDSAction,
} from '../../api/types.js';
import type { PaymentSource } from '../../context.js';
import { createPgApprovedEvent } from '../../events/approved.js';
import { createPgDeclinedEvent } from '../../events/declined.js';
import { createPgFailedEvent } from '../../events/failed.js';
import { createPgPendingEvent } from '../../events/pending.js';
import { createPgRedirectEvent } from '../../events/redirect.js';
import type { CheckoutStatus } from '../../events/status.js';
import { createTranslator, type MessageKey, type Messages } from '../../i18n/localize.js';
import type { ConnectionController } from '../../internal/connection.js';
import { shopperMessage } from '../../internal/failure-message.js';
import {
  clearRunningPayment,
  orderMark,
  saveRunningPayment,
  type RunningPayment,
} from '../../internal/running-payment.js';
import { threeDSReady } from '../../internal/three-ds-ready.js';
import { failure } from './failure.js';
import type { Pg3dsV1 } from '../3ds-v1/3ds-v1.component.js';
import type { Pg3dsV2 } from '../3ds-v2/3ds-v2.component.js';

// What `<pg-checkout>` does from Pay (or a reload that finds a payment) to the outcome. The script tag
// ships it in pg-checkout.3ds.js, fetched on the first touch like 3-D Secure: no page pays for it at load.

export { meaningOf, shopperMessage };

/** What the message region says: an outcome (localized at render, so a locale switch applies) or a step. */
export type CheckoutMessage = { outcome: FinalPaymentState } | { key: MessageKey };

/** The drop-in as this flow sees it: members private to its users, not to this file. */
export interface FlowHost extends HTMLElement {
  api?: CheckoutApi | undefined;
  inFlight: boolean;
  config?: CheckoutConfig | undefined;
  message?: CheckoutMessage | undefined;
  threeDS?: { reference: string; action: ThreeDSAction } | undefined;
  status: CheckoutStatus;
  reference: string;
  locale: string;
  messages: Partial<Messages>;
  pollInterval: number;
  readonly connection: ConnectionController;
  readonly updateComplete: Promise<boolean>;
  readonly renderRoot: HTMLElement | DocumentFragment;
  setStatus(next: CheckoutStatus): void;
  focusMessage(): void;
}

export type RedirectMethod = Exclude<PaymentMethod, 'card'>;

/** A lost or unreadable answer after the request may have reached the shop, or "already paid": ask the order. */
const askOrder = (state: PaymentState): boolean =>
  state.status === 'failed' && meaningOf(state.code)?.askOrder === true;

function isThreeDSAction(value: unknown): value is ThreeDSAction {
  const action = value as Partial<ThreeDSAction> | null;
  if (typeof action !== 'object' || action === null) return false;
  if (action.version === 1) return typeof action.acsUrl === 'string';
  return action.version === 2 && (action.step === 'method' || action.step === 'challenge');
}

/** The payment for one card form submission: create, 3-D Secure when asked, then the outcome. */
export async function pay(
  host: FlowHost,
  request: PaymentRequest,
  form: PaymentSource,
): Promise<void> {
  const api = host.api;
  // Offline before anything is sent: the one case where "nothing was charged" is proven here.
  if (!navigator.onLine) return finish(host, failure('offline'), form);
  if (api) orderMark(api.endpoint, true);
  const state: PaymentState = api
    ? await api.createPayment({ ...request, shown: shown(host) })
    : failure('not_configured');
  showNewTotal(host, state);
  if (state.reference) host.reference = state.reference;
  // Kept for 3-D Secure, and for an answer that came while the drop-in was away (it may never be back).
  if (
    api &&
    state.reference &&
    state.clientSecret &&
    (state.status === 'authenticating' || !host.isConnected)
  )
    saveRunningPayment(api.endpoint, {
      reference: state.reference,
      clientSecret: state.clientSecret,
    });
  if (api) await conclude(host, api, state, form);
  else await finish(host, state as FinalPaymentState, form);
}

/** Runs a state to its outcome and says it. */
async function conclude(
  host: FlowHost,
  api: CheckoutApi,
  state: PaymentState,
  form = noForm,
): Promise<void> {
  const final = await settle(host, api, state);
  // An outcome reached while the drop-in was away is said once it is back, never to a detached element.
  await host.connection.whenConnected();
  release(api, final);
  await finish(host, final, form);
}

/** The total on Pay, sent with it so the middleware charges no other (`amount_changed`). */
function shown(host: FlowHost): PaymentRequest['shown'] {
  const config = host.config;
  return config && { amount: config.amount, currency: config.currency };
}

/** After `amount_changed`: the order's new total goes on Pay for the shopper's next tap. */
function showNewTotal(host: FlowHost, answer: object): void {
  if (host.config && 'order' in answer)
    host.config = { ...host.config, ...(answer.order as object) };
}

/** Picks up the payment a reload interrupted: shows its outcome, or reopens 3-D Secure. */
export async function resumePayment(
  host: FlowHost,
  api: CheckoutApi,
  running: RunningPayment,
): Promise<void> {
  if (host.inFlight) return;
  host.inFlight = true;
  try {
    api.rememberSecret(running.reference, running.clientSecret);
    host.reference = running.reference;
    host.setStatus('submitting');
    let state: PaymentState = await api.payment(running.reference);
    if (api !== host.api) return;
    if (state.status === 'failed' && state.code === 'not_found') {
      // Nothing the middleware knows this browser owns: start afresh.
      clearRunningPayment(api.endpoint, running.reference);
      host.reference = '';
      host.setStatus('idle');
      return;
    }
    if (state.status === 'authenticating' && !isThreeDSAction(state.threeDS))
      state = failure('bad_response', running.reference);
    await conclude(host, api, state);
  } finally {
    host.inFlight = false;
  }
}

/** Runs 3-D Secure when asked, and asks the order when the answer was lost, until an outcome is known. */
async function settle(
  host: FlowHost,
  api: CheckoutApi,
  state: PaymentState,
): Promise<FinalPaymentState> {
  for (let asked = false; ;)
    if (state.status === 'authenticating') {
      state = await authenticate(host, state.reference, state.threeDS);
      asked = false;
    } else if (!asked && askOrder(state)) {
      // This attempt's own reference: another one paid the order, this card was not charged.
      const notThis = (state as { code?: string }).code === 'already_paid' && !!state.reference;
      state = await checkOrder(host, api, state);
      if (notThis && state.status === 'approved') state = { ...state, alreadyPaid: true as const };
      asked = true;
    } else return state;
}

/**
 * Says it is checking (never "not charged", no Pay, no "Try again") and asks `GET {endpoint}/order` until
 * it tells: on a backoff from `pollInterval`, at once when the connection is back. `open` proves nothing
 * was charged, so the lost answer's own failure stands; a payment under way or paid is the outcome.
 */
async function checkOrder(
  host: FlowHost,
  api: CheckoutApi,
  lost: FinalPaymentState,
): Promise<PaymentState> {
  host.setStatus('checking');
  host.message = { key: 'checking' };
  await host.updateComplete;
  host.focusMessage();
  for (let wait = host.pollInterval; ; wait = Math.min(wait * 2, 30_000)) {
    await host.connection.whenConnected();
    const order = await api.order();
    if (order.success && order.status === 'open') return lost;
    if (order.success && order.status !== 'checking') {
      const { payment } = order;
      if (payment.reference) host.reference = payment.reference;
      return payment;
    }
    // A middleware without the route (or one that refuses this browser) cannot tell: say so, offer nothing.
    if (!order.success && /^(not_found|http_4)/.test(order.code)) return failure('outcome_unknown');
    await new Promise<void>((wake) => {
      const done = (): void => {
        clearTimeout(timer);
        removeEventListener('online', done);
        wake();
      };
      const timer = setTimeout(done, (order.retryAfter ?? 0) * 1000 || wait);
      addEventListener('online', done);
    });
  }
}

/**
 * A page (re)opened, or back from the back-forward cache, where this browser asked to pay: the order
 * may be paid or being checked, so `GET {endpoint}/order` says what to show. The form stays usable while
 * it asks; a Pay tapped meanwhile wins (the middleware answers a paid order as such).
 */
export async function recallOrder(host: FlowHost, api: CheckoutApi): Promise<void> {
  if (!orderMark(api.endpoint)) return;
  const order = await api.order();
  if (!order.success || api !== host.api || host.inFlight || host.status !== 'idle') return;
  if (order.status === 'open') orderMark(api.endpoint, false);
  const payment = 'payment' in order ? order.payment : undefined;
  // A payment page left open (Back from it) leaves the choice to the shopper.
  if (order.status === 'open' || payment?.status === 'pending') return;
  host.inFlight = true;
  try {
    const open = failure('');
    const state = payment ?? (await checkOrder(host, api, open));
    if (state === open) {
      host.message = undefined;
      return host.setStatus('idle');
    }
    await conclude(host, api, state);
  } finally {
    host.inFlight = false;
  }
}

/** A payment that reached a final state needs no resuming. */
function release(api: CheckoutApi, state: FinalPaymentState): void {
  if (!state.reference) return;
  // Says nothing about where the payment stands: its entry stays, so a reload can resume it.
  if (state.status === 'failed' && meaningOf(state.code)?.unsettled) return;
  clearRunningPayment(api.endpoint, state.reference);
}

async function authenticate(
  host: FlowHost,
  reference: string,
  action: ThreeDSAction,
): Promise<FinalPaymentState> {
  // The 3-D Secure element gets its endpoint from this drop-in only once both are in the document.
  await host.connection.whenConnected();
  if (!(await threeDSReady())) return failure('not_loaded', reference);
  host.setStatus('authenticating');
  host.threeDS = { reference, action };
  // Said before the element runs, so the step is announced (and focused) even before its first event.
  host.message = { key: 'authenticating' };
  await host.updateComplete;
  host.focusMessage();
  try {
    if (action.version === 1) {
      const element = host.renderRoot.querySelector<Pg3dsV1>('pg-3ds-v1');
      if (element) return await element.start(reference, action);
    } else {
      const element = host.renderRoot.querySelector<Pg3dsV2>('pg-3ds-v2');
      if (element) return await element.start(reference, action);
    }
    return failure('not_registered', reference);
  } finally {
    host.threeDS = undefined;
  }
}

async function finish(
  host: FlowHost,
  state: FinalPaymentState,
  form: PaymentSource,
): Promise<void> {
  const t = createTranslator(host.locale, host.messages);
  const message = shopperMessage(state, t);
  const reference = state.reference;
  host.message = { outcome: state };
  if (state.status === 'approved' || state.status === 'pending') {
    host.setStatus(state.status);
    const detail = { reference: state.reference, message };
    host.dispatchEvent(
      state.status === 'approved' ? createPgApprovedEvent(detail) : createPgPendingEvent(detail),
    );
    // The form is gone: the outcome takes focus, so it is read and the next Tab starts from it.
    await host.updateComplete;
    host.focusMessage();
    return;
  }
  // The card was not refused by its issuer when the shopper's bank could not verify them: that is `failed`.
  const declined = state.status === 'declined' && state.code !== 'authentication_failed';
  host.setStatus(declined ? 'declined' : 'failed');
  if (state.status === 'declined' && declined) {
    const { code, originalErrorCode } = state;
    host.dispatchEvent(
      createPgDeclinedEvent({
        reference,
        code,
        message,
        ...(originalErrorCode ? { originalErrorCode } : {}),
      }),
    );
    await host.updateComplete;
    await form.clearCard();
  } else host.dispatchEvent(createPgFailedEvent({ reference, code: state.code, message }));
  // The new total is on Pay: the form is the way on, not "Try again".
  if (state.code === 'amount_changed') host.setStatus('idle');
  // The reason takes focus, so it is on screen and read first; "Try again" is the next Tab.
  await host.updateComplete;
  host.focusMessage();
}

/** Another method's payment page (the drop-in says "redirecting" already): created, then the browser goes there. */
export async function redirect(host: FlowHost, api: CheckoutApi, method: RedirectMethod) {
  orderMark(api.endpoint, true);
  // The hosted page charges another currency than the one shown here, and shows its own total.
  const answer = await api.startRedirect(method, method === 'hosted' ? undefined : shown(host));
  await host.connection.whenConnected();
  if (!answer.success) {
    showNewTotal(host, answer);
    await conclude(host, api, failure(answer.code));
    return;
  }
  host.reference = answer.reference;
  const event = createPgRedirectEvent({
    method,
    reference: answer.reference,
    redirectUrl: answer.redirectUrl,
  });
  if (host.dispatchEvent(event)) window.location.assign(answer.redirectUrl);
}

const noForm: PaymentSource = { clearCard: () => Promise.resolve() };
