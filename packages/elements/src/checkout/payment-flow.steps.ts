import { html, nothing, type ReactiveControllerHost } from 'lit';
import type { CheckoutApi } from '../api/client.js';
import { meaningOf } from '../api/codes.js';
import type {
  CheckoutConfig,
  FinalPaymentState,
  PaymentRequest,
  PaymentState,
  ThreeDSAction,
} from '../api/types.js';
import type { RedirectMethod } from '@pg-checkout/protocol/vocabulary';
import type { PaymentSource } from '../shared/context.js';
import type { ConnectionController } from '../shared/connection.js';
import type { CheckoutStatus } from '../shared/events/status.js';
import type { MessageKey } from '../i18n/localize.js';
import type { LocalizeController } from '../shared/localize-controller.js';
import { createPgApprovedEvent } from '../shared/events/approved.js';
import { createPgDeclinedEvent } from '../shared/events/declined.js';
import { createPgFailedEvent } from '../shared/events/failed.js';
import { createPgPendingEvent } from '../shared/events/pending.js';
import { createPgRedirectEvent } from '../shared/events/redirect.js';
import { failure } from './failure.js';
import { pageClock, type Clock } from '../shared/sleep.js';
import { shopperMessage } from '../shared/failure-message.js';
import {
  clearRunningPayment,
  orderMark,
  saveRunningPayment,
  type RunningPayment,
} from './running-payment.js';
import type { Pg3dsV1 } from '../three-ds/3ds-v1.component.js';
import type { Pg3dsV2 } from '../three-ds/3ds-v2.component.js';

// The payment flow's steps from Pay (or a reload that finds a payment) to the outcome. The script tag
// ships them in pg-checkout.3ds.js, fetched on the first touch like 3-D Secure: no page pays for them at load.
// They change nothing of the flow's themselves: its controller (payment-flow.ts) owns its state, and the
// steps ask it through its methods (FlowOwner, below), so this file imports nothing of the controller.

// The outcome sentence, for the script tag's first file (three-ds.lazy.ts).
export { shopperMessage };

/** What the message region says: an outcome (localized at render, so a locale switch applies) or a step. */
export type CheckoutMessage = { outcome: FinalPaymentState } | { key: MessageKey };

export type { RedirectMethod };

/** The 3-D Secure step to render, while one runs. */
export interface ThreeDSStep {
  reference: string;
  action: ThreeDSAction;
}

/** The element that holds the flow, as the steps read it. */
export interface StepsHost extends ReactiveControllerHost, HTMLElement {
  /** The 3-D Secure element's settings; without them it keeps its defaults. */
  appearance?: string;
  methodTimeout?: number;
  challengeTimeout?: number;
  pollInterval: number;
  status: CheckoutStatus;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/**
 * The controller that owns the flow (payment-flow.ts), as its steps see it: what they read, and the
 * methods through which alone the flow's state changes.
 */
export interface FlowOwner {
  readonly host: StepsHost;
  readonly api: CheckoutApi | undefined;
  readonly config: CheckoutConfig | undefined;
  readonly inFlight: boolean;
  readonly connection: ConnectionController;
  readonly localize: LocalizeController;
  readonly options: { focusMessage: () => Promise<void>; clock?: Clock | undefined };
  setStatus(next: CheckoutStatus): void;
  /** A closed bank check: `checking` until the middleware says how the payment stands. */
  threeDSChecking(): void;
  setMessage(message: CheckoutMessage | undefined): void;
  setReference(reference: string): void;
  showThreeDS(step: ThreeDSStep | undefined): void;
  setConfig(config: CheckoutConfig | undefined): void;
  /** Runs `work` unless a payment runs already, with `inFlight` true meanwhile. */
  runAlone(work: () => Promise<void>): Promise<void>;
}

/** The 3-D Secure element's parts, forwarded so `pg-checkout::part(challenge)` themes it. */
const threeDSParts = 'challenge,frame,cancel,method-frame';

/** A lost or unreadable answer after the request may have reached the shop, or "already paid": ask the order. */
const askOrder = (state: PaymentState): boolean =>
  state.status === 'failed' && meaningOf(state.code)?.askOrder === true;

function isThreeDSAction(value: unknown): value is ThreeDSAction {
  const action = value as Partial<ThreeDSAction> | null;
  if (typeof action !== 'object' || action === null) return false;
  if (action.version === 1) return typeof action.acsUrl === 'string';
  return action.version === 2 && (action.step === 'method' || action.step === 'challenge');
}

/**
 * The steps of one drop-in's flow from Pay to the outcome, owned by its PaymentFlowController (made once the
 * steps are loaded). They read the flow and change it only through the controller's methods.
 */
export class PaymentSteps {
  private readonly flow: FlowOwner;

  constructor(flow: FlowOwner) {
    this.flow = flow;
  }

  /** The drop-in's one live region speaks for each 3-D Secure step; it has been in the tree all along. */
  private readonly onThreeDSStart = async (event: Event): Promise<void> => {
    const flow = this.flow;
    const { step } = (event as CustomEvent<{ step: 'method' | 'challenge' }>).detail;
    flow.setMessage({ key: step === 'method' ? 'authenticating' : 'challengeAnnouncement' });
    // The card form is hidden now: focus stays on what the shopper is waiting for.
    if (step === 'method') await flow.options.focusMessage();
  };

  /** A closed bank check is not "no payment" until the middleware says so. */
  private readonly onThreeDSChecking = (): void => this.flow.threeDSChecking();

  /** The 3-D Secure element for the step the flow shows, in the drop-in's shadow root (`authenticate` finds it there). */
  renderThreeDS(step: ThreeDSStep): unknown {
    const host = this.flow.host;
    return html`<div
      part="three-ds"
      @pg-threeds-start=${this.onThreeDSStart}
      @pg-threeds-checking=${this.onThreeDSChecking}
    >
      ${
        step.action.version === 1
          ? html`<pg-3ds-v1
              exportparts=${threeDSParts}
              appearance=${host.appearance ?? nothing}
              challenge-timeout=${host.challengeTimeout ?? nothing}
              poll-interval=${host.pollInterval}
            ></pg-3ds-v1>`
          : html`<pg-3ds-v2
              exportparts=${threeDSParts}
              appearance=${host.appearance ?? nothing}
              method-timeout=${host.methodTimeout ?? nothing}
              challenge-timeout=${host.challengeTimeout ?? nothing}
              poll-interval=${host.pollInterval}
            ></pg-3ds-v2>`
      }
    </div>`;
  }

  /** Whether an outcome's code closes the order for this page (the code table ships with the steps). */
  closes(code: string): boolean {
    return !!meaningOf(code)?.closesOrder;
  }

  /** The payment for one card form submission: create, 3-D Secure when asked, then the outcome. */
  async pay(request: PaymentRequest, form: PaymentSource): Promise<void> {
    const flow = this.flow;
    const api = flow.api;
    // Offline before anything is sent: the one case where "nothing was charged" is proven here.
    if (!navigator.onLine) return this.finish(failure('offline'), form);
    if (api) orderMark(api.endpoint, true);
    const state: PaymentState = api
      ? await api.createPayment({ ...request, shown: this.shownTotal() })
      : failure('not_configured');
    showNewTotal(flow, state);
    if (state.reference) flow.setReference(state.reference);
    // Kept for 3-D Secure, and for an answer that came while the drop-in was away (it may never be back).
    if (
      api &&
      state.reference &&
      state.clientSecret &&
      (state.status === 'authenticating' || !flow.host.isConnected)
    )
      saveRunningPayment(api.endpoint, {
        reference: state.reference,
        clientSecret: state.clientSecret,
      });
    if (api) await this.conclude(api, state, form);
    else await this.finish(state as FinalPaymentState, form);
  }

  /** Runs a state to its outcome and says it. */
  private async conclude(api: CheckoutApi, state: PaymentState, form = noForm): Promise<void> {
    const final = await this.settleState(api, state);
    // An outcome reached while the drop-in was away is said once it is back, never to a detached element.
    await this.flow.connection.whenConnected();
    release(api, final);
    await this.finish(final, form);
  }

  /** The total on Pay, sent with it so the middleware charges no other (`amount_changed`). */
  private shownTotal(): PaymentRequest['shown'] {
    const config = this.flow.config;
    return config && { amount: config.amount, currency: config.currency };
  }

  /** Picks up the payment a reload interrupted: shows its outcome, or reopens 3-D Secure. */
  resumePayment(api: CheckoutApi, running: RunningPayment): Promise<void> {
    const flow = this.flow;
    return flow.runAlone(async () => {
      api.rememberSecret(running.reference, running.clientSecret);
      flow.setReference(running.reference);
      flow.setStatus('submitting');
      let state: PaymentState = await api.payment(running.reference);
      if (api !== flow.api) return;
      if (state.status === 'failed' && state.code === 'not_found') {
        // Nothing the middleware knows this browser owns: start afresh.
        clearRunningPayment(api.endpoint, running.reference);
        flow.setReference('');
        flow.setStatus('idle');
        return;
      }
      if (state.status === 'authenticating' && !isThreeDSAction(state.threeDS))
        state = failure('bad_response', running.reference);
      await this.conclude(api, state);
    });
  }

  /** Runs 3-D Secure when asked, and asks the order when the answer was lost, until an outcome is known. */
  private async settleState(api: CheckoutApi, state: PaymentState): Promise<FinalPaymentState> {
    for (let asked = false; ;)
      if (state.status === 'authenticating') {
        state = await this.authenticate(state.reference, state.threeDS);
        asked = false;
      } else if (!asked && askOrder(state)) {
        // This attempt's own reference: another one paid the order, this card was not charged.
        const notThis = (state as { code?: string }).code === 'already_paid' && !!state.reference;
        state = await this.checkOrder(api, state);
        if (notThis && state.status === 'approved')
          state = { ...state, alreadyPaid: true as const };
        asked = true;
      } else return state;
  }

  /**
   * Says it is checking (never "not charged", no Pay, no "Try again") and asks `GET {endpoint}/order` until
   * it tells: on a backoff from `pollInterval`, at once when the connection is back. `open` proves nothing
   * was charged, so the lost answer's own failure stands; a payment under way or paid is the outcome.
   */
  private async checkOrder(api: CheckoutApi, lost: FinalPaymentState): Promise<PaymentState> {
    const flow = this.flow;
    flow.setStatus('checking');
    flow.setMessage({ key: 'checking' });
    await flow.options.focusMessage();
    for (let wait = flow.host.pollInterval; ; wait = Math.min(wait * 2, 30_000)) {
      await flow.connection.whenConnected();
      const order = await api.order();
      if (order.success && order.status === 'open') return lost;
      if (order.success && order.status !== 'checking') {
        const { payment } = order;
        if (payment.reference) flow.setReference(payment.reference);
        return payment;
      }
      // A middleware without the route (or one that refuses this browser) cannot tell: say so, offer nothing.
      if (!order.success && /^(not_found|http_4)/.test(order.code))
        return failure('outcome_unknown');
      const clock = flow.options.clock ?? pageClock;
      await new Promise<void>((wake) => {
        const done = (): void => {
          clock.clearTimeout(timer);
          removeEventListener('online', done);
          wake();
        };
        const timer = clock.setTimeout(done, (order.retryAfter ?? 0) * 1000 || wait);
        addEventListener('online', done);
      });
    }
  }

  /**
   * A page (re)opened, or back from the back-forward cache, where this browser asked to pay: the order
   * may be paid or being checked, so `GET {endpoint}/order` says what to show. The form stays usable while
   * it asks; a Pay tapped meanwhile wins (the middleware answers a paid order as such).
   */
  async recallOrder(api: CheckoutApi): Promise<void> {
    const flow = this.flow;
    if (!orderMark(api.endpoint)) return;
    const order = await api.order();
    if (!order.success || api !== flow.api || flow.inFlight || flow.host.status !== 'idle') return;
    if (order.status === 'open') orderMark(api.endpoint, false);
    const payment = 'payment' in order ? order.payment : undefined;
    // A payment page left open (Back from it) leaves the choice to the shopper.
    if (order.status === 'open' || payment?.status === 'pending') return;
    await flow.runAlone(async () => {
      const open = failure('');
      const state = payment ?? (await this.checkOrder(api, open));
      if (state === open) {
        flow.setMessage(undefined);
        return flow.setStatus('idle');
      }
      await this.conclude(api, state);
    });
  }

  private async authenticate(reference: string, action: ThreeDSAction): Promise<FinalPaymentState> {
    const flow = this.flow;
    // The 3-D Secure element gets its endpoint from this drop-in only once both are in the document.
    await flow.connection.whenConnected();
    flow.setStatus('authenticating');
    flow.showThreeDS({ reference, action });
    // Said before the element runs, so the step is announced (and focused) even before its first event.
    flow.setMessage({ key: 'authenticating' });
    await flow.options.focusMessage();
    try {
      if (action.version === 1) {
        const element = flow.host.renderRoot.querySelector<Pg3dsV1>('pg-3ds-v1');
        if (element) return await element.start(reference, action);
      } else {
        const element = flow.host.renderRoot.querySelector<Pg3dsV2>('pg-3ds-v2');
        if (element) return await element.start(reference, action);
      }
      return failure('not_registered', reference);
    } finally {
      flow.showThreeDS(undefined);
    }
  }

  private async finish(state: FinalPaymentState, form: PaymentSource): Promise<void> {
    const flow = this.flow;
    const message = flow.localize.outcome(state);
    const reference = state.reference;
    flow.setMessage({ outcome: state });
    if (state.status === 'approved' || state.status === 'pending') {
      flow.setStatus(state.status);
      const detail = { reference: state.reference, message };
      flow.host.dispatchEvent(
        state.status === 'approved' ? createPgApprovedEvent(detail) : createPgPendingEvent(detail),
      );
      // The form is gone: the outcome takes focus, so it is read and the next Tab starts from it.
      await flow.options.focusMessage();
      return;
    }
    // The card was not refused by its issuer when the shopper's bank could not verify them: that is `failed`.
    const declined = state.status === 'declined' && state.code !== 'authentication_failed';
    flow.setStatus(declined ? 'declined' : 'failed');
    if (state.status === 'declined' && declined) {
      const { code, originalErrorCode } = state;
      flow.host.dispatchEvent(
        createPgDeclinedEvent({
          reference,
          code,
          message,
          ...(originalErrorCode ? { originalErrorCode } : {}),
        }),
      );
      await flow.host.updateComplete;
      await form.clearCard();
    } else flow.host.dispatchEvent(createPgFailedEvent({ reference, code: state.code, message }));
    // The new total is on Pay: the form is the way on, not "Try again".
    if (state.code === 'amount_changed') flow.setStatus('idle');
    // The reason takes focus, so it is on screen and read first; "Try again" is the next Tab.
    await flow.options.focusMessage();
  }

  /** Another method's payment page (the drop-in says "redirecting" already): created, then the browser goes there. */
  async redirect(api: CheckoutApi, method: RedirectMethod): Promise<void> {
    const flow = this.flow;
    orderMark(api.endpoint, true);
    // The hosted page charges another currency than the one shown here, and shows its own total.
    const answer = await api.startRedirect(
      method,
      method === 'hosted' ? undefined : this.shownTotal(),
    );
    await flow.connection.whenConnected();
    if (!answer.success) {
      showNewTotal(flow, answer);
      await this.conclude(api, failure(answer.code));
      return;
    }
    flow.setReference(answer.reference);
    const event = createPgRedirectEvent({
      method,
      reference: answer.reference,
      redirectUrl: answer.redirectUrl,
    });
    if (flow.host.dispatchEvent(event)) window.location.assign(answer.redirectUrl);
  }
}

/** After `amount_changed`: the order's new total goes on Pay for the shopper's next tap. */
function showNewTotal(flow: FlowOwner, answer: object): void {
  if (flow.config && 'order' in answer)
    flow.setConfig({ ...flow.config, ...(answer.order as CheckoutConfig) });
}

/** A payment that reached a final state needs no resuming. */
function release(api: CheckoutApi, state: FinalPaymentState): void {
  if (!state.reference) return;
  // Says nothing about where the payment stands: its entry stays, so a reload can resume it.
  if (state.status === 'failed' && meaningOf(state.code)?.unsettled) return;
  clearRunningPayment(api.endpoint, state.reference);
}

const noForm: PaymentSource = { clearCard: () => Promise.resolve() };
