import { ContextConsumer } from '@lit/context';
import type { LitElement } from 'lit';
import { CheckoutApi } from '../api/client.js';
import type { FinalPaymentState, KnownCode, PaymentState, ThreeDSAction } from '../api/types.js';
import { checkoutContext, type CheckoutContext } from '../context.js';
import { createPg3dsCheckingEvent } from '../events/3ds-checking.js';
import { createPg3dsCompleteEvent } from '../events/3ds-complete.js';
import { createPg3dsStartEvent } from '../events/3ds-start.js';
import type { Messages } from '../i18n/localize.js';
import { challengeDeadline } from '../internal/challenge-deadline.js';
import { pageClock, type Clock } from '../internal/clock.js';
import { isTransient, waitForCompletion } from '../internal/completion.js';
import { ConnectionController } from '../internal/connection.js';
import { postIntoFrame } from '../internal/post-into-frame.js';
import { sleep } from '../internal/sleep.js';
import { pickChallengeWindow, type ChallengeWindow } from '../internal/window-size.js';
import { LocalizeController } from './localize.js';

export type Phase = 'idle' | 'method' | 'challenge' | 'resuming';

/** What is posted into the challenge frame, and where the completion page may come from. */
export interface ChallengeRequest {
  acsUrl: string;
  fields: Record<string, string>;
  callbackOrigin?: string | undefined;
}

/** The element's properties the flow reads (`<pg-3ds-v2>` and `<pg-3ds-v1>` both have them). */
export interface ThreeDSHost extends LitElement {
  endpoint: string;
  challengeTimeout: number;
  pollInterval: number;
  locale: string;
  messages: Partial<Messages>;
}

/** What differs between 3-D Secure 1 and 2, handed to the flow by each element. */
export interface ThreeDSVersion<Action extends ThreeDSAction> {
  version: 1 | 2;
  /** The fields to post into the challenge frame, from an action (a status read's too, when posted again). */
  challengeRequest(action: ThreeDSAction): ChallengeRequest | undefined;
  /** What runs before the challenge (v2's method step): the challenge's action, or how the payment ended. */
  before?(
    flow: ThreeDSFlowController,
    reference: string,
    action: Action,
    signal: AbortSignal,
  ): Promise<ThreeDSAction | FinalPaymentState>;
}

/** The part of the API client a 3-D Secure flow calls. */
export type ThreeDSApi = Pick<
  CheckoutApi,
  'origin' | 'payment' | 'cancelPayment' | 'confirmMethodAt' | 'rememberSecret'
>;

export interface ThreeDSFlowOptions {
  /** The page's timers unless a test hands its own. */
  clock?: Clock | undefined;
  /** The API to call instead of one for the endpoint (a test's). */
  api?: (() => ThreeDSApi) | undefined;
}

let frameCounter = 0;

/**
 * One 3-D Secure flow of an element: its phases, the method and challenge frames' state, cancel, the
 * time limit and its warning, status polling until the gateway decides, and cleanup whatever way the flow
 * ends. A move of the element (disconnect, then connect) pauses the flow; it never ends it. Its hooks into
 * the element's life are the reactive controllers it adds: connection, localize and the drop-in's context.
 */
export class ThreeDSFlowController<Action extends ThreeDSAction = ThreeDSAction> {
  readonly host: ThreeDSHost;
  readonly localize: LocalizeController;
  readonly connection: ConnectionController;
  readonly clock: Clock;
  private readonly steps: ThreeDSVersion<Action>;
  private readonly ownApiOption: (() => ThreeDSApi) | undefined;

  /** The drop-in around the element, if any: its API and its translator speak for the element. */
  checkout?: CheckoutContext | undefined;
  phase: Phase = 'idle';
  methodSource?: { src?: string; srcdoc?: string } | undefined;
  challengeWindow: ChallengeWindow = { code: '02', width: 390, height: 400 };
  frameName = '';
  /** The bank's page has arrived in the challenge frame (until then a spinner says it is loading). */
  bankLoaded = false;
  /** Seconds left when the shopper was warned that the challenge is about to time out (0: no warning). */
  timeoutWarning = 0;

  private moreTimeRequested?: (() => void) | undefined;
  private methodLoaded?: (() => void) | undefined;
  private flow?: AbortController | undefined;
  private cancelRequested?: (() => void) | undefined;
  /** Standalone, one API object per endpoint, so the secrets it keeps outlive a single call. */
  private ownApi?: [endpoint: string, api: CheckoutApi] | undefined;

  constructor(host: ThreeDSHost, steps: ThreeDSVersion<Action>, options: ThreeDSFlowOptions = {}) {
    this.host = host;
    this.steps = steps;
    this.clock = options.clock ?? pageClock;
    this.ownApiOption = options.api;
    this.connection = new ConnectionController(host);
    this.localize = new LocalizeController(host, { inherit: () => this.checkout?.t });
    new ContextConsumer(host, {
      context: checkoutContext,
      subscribe: true,
      callback: (value) => {
        this.checkout = value;
        host.requestUpdate();
      },
    });
  }

  get api(): ThreeDSApi {
    if (this.ownApiOption) return this.ownApiOption();
    if (this.checkout?.api) return this.checkout.api;
    const { endpoint, localName } = this.host;
    if (!endpoint)
      throw new TypeError(
        `<${localName}> needs an endpoint attribute or a <pg-checkout> around it`,
      );
    if (this.ownApi?.[0] !== endpoint) this.ownApi = [endpoint, new CheckoutApi(endpoint)];
    return this.ownApi[1];
  }

  /** True while a flow runs. */
  get active(): boolean {
    return this.flow !== undefined;
  }

  /** Sets what the element shows and renders it again. */
  setView(view: Partial<Pick<this, 'phase' | 'methodSource' | 'frameName' | 'bankLoaded'>>): void {
    Object.assign(this, view);
    this.host.requestUpdate();
  }

  /**
   * Runs the flow for one payment and resolves with its final state; never rejects for payment outcomes.
   * Throws a clear error for a setup mistake (no endpoint), and keeps the secret handed in, which proves
   * ownership of `reference` on every later call.
   */
  start(reference: string, action: Action, clientSecret?: string): Promise<FinalPaymentState> {
    const api = this.api;
    if (clientSecret) api.rememberSecret(reference, clientSecret);
    return this.run(reference, async (signal) => {
      let next: ThreeDSAction | FinalPaymentState = action;
      if (this.steps.before) {
        next = await this.steps.before(this, reference, action, signal);
        if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
        if (!('version' in next)) return next;
      }
      const request = this.steps.challengeRequest(next);
      if (!request) return this.failure(reference, 'authentication_failed', 'authenticationFailed');
      return this.challenge(reference, request, signal);
    });
  }

  /**
   * Closes the bank check (the shopper's Cancel does the same); the flow ends as the middleware then says:
   * `authentication_cancelled` once it made sure no payment will be made, else what the bank's answer decided.
   */
  cancel(): void {
    this.cancelRequested?.();
  }

  /** "More time": the whole challenge time again, and focus back into the bank's page. */
  moreTime(): void {
    this.moreTimeRequested?.();
  }

  /**
   * Runs `body` as the one flow of this element: a running flow is ended first, and whatever way this one
   * ends (result, cancel, timeout, a newer flow) its frames, listeners and timers go with it. Removing
   * the element does not end it: the flow waits for the element to be connected again, and an outcome
   * reached meanwhile is reported (event, resolved promise) once it is back, never to a detached element.
   */
  private async run(
    reference: string,
    body: (signal: AbortSignal) => Promise<FinalPaymentState>,
  ): Promise<FinalPaymentState> {
    this.flow?.abort();
    const flow = new AbortController();
    this.flow = flow;
    let ended = false;
    const cancelled = new Promise<FinalPaymentState>((resolve) => {
      this.cancelRequested = () => {
        ended = true;
        this.cancelRequested = undefined;
        resolve(this.confirmCancel(reference, flow.signal));
      };
      flow.signal.addEventListener(
        'abort',
        () => {
          ended = true;
          resolve(this.failure(reference, 'aborted', 'failed'));
        },
        { once: true },
      );
    });
    const run = async (): Promise<FinalPaymentState> => {
      // Started while detached (a drop-in moved between create and 3-D Secure): frames need the page.
      if (!this.host.isConnected) await this.connection.whenConnected(flow.signal);
      return flow.signal.aborted ? this.failure(reference, 'aborted', 'failed') : body(flow.signal);
    };
    let result: FinalPaymentState;
    try {
      result = await Promise.race([run(), cancelled]);
      // Cancelled or superseded: said at once. Otherwise the shopper learns it when the element is back.
      if (!ended) await Promise.race([this.connection.whenConnected(flow.signal), cancelled]);
    } catch {
      result = this.failure(reference, 'network_error', 'networkError');
    } finally {
      flow.abort();
      if (this.flow === flow) {
        this.flow = undefined;
        this.cancelRequested = undefined;
        this.setView({ phase: 'idle', methodSource: undefined });
      }
    }
    // Whatever the middleware wrote, the caller gets the localized sentence for this outcome.
    result = { ...result, message: this.localize.outcome(result) };
    this.host.dispatchEvent(
      createPg3dsCompleteEvent({
        reference,
        status: result.status,
        ...('code' in result ? { code: result.code } : {}),
      }),
    );
    return result;
  }

  /**
   * The shopper closed the bank check (or it ran out of time), perhaps after its Submit: the bank's answer
   * may already be at the shop. The frame goes, the state is `checking` (`pg-threeds-checking`), and only
   * the middleware's answer to the cancel (the payment ended uncharged, or what the bank's answer decided)
   * is the outcome.
   */
  private async confirmCancel(
    reference: string,
    signal: AbortSignal,
    timedOut = false,
  ): Promise<FinalPaymentState> {
    this.setView({ phase: 'resuming' });
    this.host.dispatchEvent(createPg3dsCheckingEvent({ reference }));
    for (let wait = this.host.pollInterval; ; wait = Math.min(wait * 2, 30_000)) {
      const state = await this.api.cancelPayment(reference);
      if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
      // A middleware without the route cannot say whether the bank's answer came: never "no payment".
      if (state.status === 'failed' && state.code === 'not_found')
        return this.failure(reference, 'outcome_unknown', 'outcomeUnknown');
      if (timedOut && state.status === 'failed' && state.code === 'authentication_cancelled')
        return this.failure(reference, 'authentication_timeout', 'authenticationTimeout');
      if (state.status !== 'authenticating' && !isTransient(state)) return state;
      await sleep(wait, signal, this.clock);
    }
  }

  /**
   * Runs the challenge until the gateway decides. A move or removal closes the frame (a moved iframe
   * reloads, so the bank's page is lost) and stops polling; once the element is back, the state is read:
   * an outcome reached meanwhile ends the flow, a payment still waiting gets its challenge posted again
   * (the request from that read, else the one before), and polling resumes.
   */
  private async challenge(
    reference: string,
    request: ChallengeRequest,
    signal: AbortSignal,
  ): Promise<FinalPaymentState> {
    let current = request;
    for (;;) {
      await this.connection.whenConnected(signal);
      if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
      const shown = await this.showChallenge(reference, current, signal);
      if (shown !== 'detached') return shown;
      this.setView({ phase: 'idle' });
      await this.connection.whenConnected(signal);
      if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
      this.setView({ phase: 'resuming' });
      const state = await this.api.payment(reference);
      if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
      if (state.status === 'authenticating')
        current = this.steps.challengeRequest(state.threeDS) ?? current;
      // Unreadable for now: post it again anyway; the polls tell when the gateway has decided.
      else if (!isTransient(state)) return state;
    }
  }

  /**
   * Shows the challenge frame, posts the request's fields to `acsUrl` into it and waits for the outcome:
   * the completion page's message (from `callbackOrigin` or the endpoint's origin) or a status read,
   * whichever is first; `detached` when the element left the document first.
   */
  private async showChallenge(
    reference: string,
    request: ChallengeRequest,
    signal: AbortSignal,
  ): Promise<FinalPaymentState | 'detached'> {
    const { host } = this;
    const version = this.steps.version;
    const attached = this.connection.signal;
    frameCounter += 1;
    this.challengeWindow = pickChallengeWindow(
      host.getBoundingClientRect().width || host.parentElement?.clientWidth || 390,
      window.innerHeight,
    );
    this.setView({
      frameName: `pg-3ds-${version}-${Date.now().toString(36)}-${frameCounter}`,
      bankLoaded: false,
      phase: 'challenge',
    });
    await host.updateComplete;
    if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
    if (attached.aborted) return 'detached';
    this.reveal();
    const frame = host.renderRoot.querySelector<HTMLIFrameElement>('iframe[part=frame]');
    // Each attempt gets a fresh frame (no history, no old bank page); a form aimed at a missing name opens a window.
    if (!frame || frame.name !== this.frameName)
      return this.failure(reference, 'aborted', 'failed');
    const api = this.api;
    // Ends with this challenge or this attachment, whichever way: nothing outlives it into a later one.
    const watch = new AbortController();
    const stop = (): void => watch.abort();
    signal.addEventListener('abort', stop, { once: true, signal: watch.signal });
    attached.addEventListener('abort', stop, { once: true, signal: watch.signal });
    try {
      const completed = waitForCompletion({
        frame,
        origins: [api.origin, request.callbackOrigin],
        reference,
        read: () => api.payment(reference),
        pollInterval: host.pollInterval,
        signal: watch.signal,
        clock: this.clock,
      });
      host.dispatchEvent(createPg3dsStartEvent({ reference, version, step: 'challenge' }));
      // Focus goes in once the bank's page is there: focused any earlier, that page never gets it.
      frame.addEventListener(
        'load',
        () => {
          // The empty document a new frame starts with is not the bank's page.
          if (frame.contentDocument?.URL === 'about:blank') return;
          this.setView({ bankLoaded: true });
          this.focusFrame(frame);
          this.reveal();
        },
        { signal: watch.signal },
      );
      postIntoFrame(host.renderRoot as ShadowRoot, request.acsUrl, this.frameName, request.fields);
      this.setWarning(0);
      const deadline = challengeDeadline(
        host.challengeTimeout,
        watch.signal,
        (left) => this.setWarning(left),
        this.clock,
      );
      this.moreTimeRequested = () => {
        this.setWarning(0);
        deadline.extend();
        this.focusFrame(frame);
      };
      const timedOut = deadline.ended.then(() => 'timeout' as const);
      const outcome = await Promise.race([completed, timedOut]);
      if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
      if (attached.aborted) return 'detached';
      if (outcome === undefined) return this.failure(reference, 'aborted', 'failed');
      // Out of time, but the bank's answer may be at the shop right now: the middleware ends it or tells.
      if (outcome === 'timeout') return await this.confirmCancel(reference, signal, true);
      return outcome.state;
    } finally {
      watch.abort();
      this.setWarning(0);
    }
  }

  private setWarning(secondsLeft: number): void {
    this.timeoutWarning = secondsLeft;
    this.host.requestUpdate();
  }

  /** Shows the hidden method frame (v2); resolves on its first load, or never when it does not load. */
  showMethod(source: { src?: string; srcdoc?: string }): Promise<void> {
    this.setView({ methodSource: source, phase: 'method' });
    return new Promise((resolve) => (this.methodLoaded = resolve));
  }

  /** The method frame's load event (the view calls it). */
  onMethodLoad(): void {
    this.methodLoaded?.();
    this.methodLoaded = undefined;
  }

  private focusFrame(frame: HTMLIFrameElement): void {
    const root = this.host.renderRoot as ShadowRoot;
    // Already focused from an earlier load: step out first, or the new page would not get focus.
    if (root.activeElement === frame)
      root.querySelector<HTMLElement>('[part=challenge]')?.focus({ preventScroll: true });
    // Focus scrolls in its own way per engine (Firefox puts the frame's top at the screen's, hiding the close control).
    frame.focus({ preventScroll: true });
  }

  /**
   * Scrolls the challenge (close control, then the bank's page) to the top of the screen unless all of it is
   * on screen: on a phone or zoomed in it opens below the form, where only the bank's title would show.
   */
  private reveal(): void {
    const box = this.host.renderRoot.querySelector<HTMLElement>('[part=challenge]');
    const rect = box?.getBoundingClientRect();
    if (rect && (rect.top < 0 || rect.bottom > innerHeight))
      box!.scrollIntoView({ block: 'start' });
  }

  /** Escape cancels the bank check, wherever focus is in the element (a cross-origin page keeps its keys). */
  onChallengeKeydown(event: KeyboardEvent): void {
    if (this.phase !== 'challenge') return;
    if (event.key === 'Escape') {
      event.preventDefault();
      this.cancel();
      return;
    }
    // A Tab seen here while the frame element has focus never reached the bank's page (WebKit keeps keys
    // with the parent): step back to the control before the frame so this Tab goes into the page.
    const root = this.host.renderRoot as ShadowRoot;
    if (event.key === 'Tab' && !event.shiftKey && root.activeElement?.localName === 'iframe')
      root.querySelector<HTMLElement>('[part=cancel]')?.focus();
  }

  /** A state read after 3-D Secure must be final; one still authenticating means the bank gave no result. */
  finalState(state: PaymentState, reference: string): FinalPaymentState {
    if (state.status !== 'authenticating') return state;
    return this.failure(reference, 'authentication_failed', 'authenticationFailed');
  }

  failure(reference: string, code: KnownCode, key: keyof Messages): FinalPaymentState {
    return { success: false, status: 'failed', reference, code, message: this.localize.t(key) };
  }
}
