import { ContextConsumer } from '@lit/context';
import { CheckoutApi } from '../api/client.js';
import type { FinalPaymentState, KnownCode, PaymentState, ThreeDSAction } from '../api/types.js';
import { checkoutContext, type CheckoutContext } from '../shared/context.js';
import { createPg3dsCheckingEvent } from './events/3ds-checking.js';
import { createPg3dsCompleteEvent } from './events/3ds-complete.js';
import { createPg3dsStartEvent } from './events/3ds-start.js';
import type { Messages } from '../i18n/localize.js';
import { isTransient } from './completion.js';
import { ConnectionController } from '../shared/connection.js';
import { methodPosted } from './method-posted.js';
import { pageClock, sleep, type Clock } from '../shared/sleep.js';
import { ChallengeFrame } from './challenge-frame.js';
import type { ChallengeRequest, ThreeDSApi, ThreeDSHost } from './ports.js';
import { LocalizeController } from '../shared/localize-controller.js';
import { methodHtml } from './trusted-html.js';

export type { ChallengeRequest, ThreeDSApi, ThreeDSHost } from './ports.js';

export type Phase = 'idle' | 'method' | 'challenge' | 'resuming';

/** What differs between 3-D Secure 1 and 2, and what a test hands in. */
export interface ThreeDSFlowOptions {
  version: 1 | 2;
  /** Milliseconds between the method frame's load and Step 2 confirm (3-D Secure 2's method step). */
  methodTimeout?: (() => number) | undefined;
  /** The page's timers unless a test hands its own. */
  clock?: Clock | undefined;
  /** The API to call instead of one for the endpoint (a test's). */
  api?: (() => ThreeDSApi) | undefined;
}

/** Longest wait for the method form to reach the bank once the frame loaded. */
const METHOD_POST_LIMIT_MS = 2_000;

/** Longest wait for the method frame's load event before carrying on without it. */
const METHOD_LOAD_LIMIT_MS = 10_000;

/** The fields to post into the challenge frame, from an action of `version` (a status read's too), if it asks for one. */
function challengeRequest(action: ThreeDSAction, version: 1 | 2): ChallengeRequest | undefined {
  if (action.version !== version) return undefined;
  if (action.version === 1)
    return {
      acsUrl: action.acsUrl,
      fields: { PaReq: action.paReq, MD: action.md, TermUrl: action.termUrl },
      callbackOrigin: action.callbackOrigin,
    };
  if (action.step !== 'challenge') return undefined;
  return {
    acsUrl: action.acsUrl,
    fields: { creq: action.creq, threeDSSessionData: action.threeDSSessionData },
    callbackOrigin: action.callbackOrigin,
  };
}

/**
 * One 3-D Secure flow of an element: its phases, the method and challenge frames' state, cancel, the
 * time limit and its warning, status polling until the gateway decides, and cleanup whatever way the flow
 * ends. A move of the element (disconnect, then connect) pauses the flow; it never ends it. Its hooks into
 * the element's life are the reactive controllers it adds: connection, localize and the drop-in's context.
 */
export class ThreeDSFlowController {
  readonly host: ThreeDSHost;
  readonly localize: LocalizeController;
  readonly connection: ConnectionController;
  readonly clock: Clock;
  /** The challenge's frame, its time limit and warning. */
  readonly frame: ChallengeFrame;
  private readonly version: 1 | 2;
  private readonly methodTimeout: () => number;
  private readonly ownApiOption: (() => ThreeDSApi) | undefined;

  /** The drop-in around the element, if any: its API and its translator speak for the element. */
  checkout?: CheckoutContext | undefined;
  phase: Phase = 'idle';
  methodSource?: { src?: string; srcdoc?: string } | undefined;
  private methodLoaded?: (() => void) | undefined;
  private flow?: AbortController | undefined;
  private cancelRequested?: (() => void) | undefined;
  /** Standalone, one API object per endpoint, so the secrets it keeps outlive a single call. */
  private ownApi?: [endpoint: string, api: CheckoutApi] | undefined;

  constructor(host: ThreeDSHost, options: ThreeDSFlowOptions) {
    this.host = host;
    this.version = options.version;
    this.methodTimeout = options.methodTimeout ?? (() => 0);
    this.clock = options.clock ?? pageClock;
    this.frame = new ChallengeFrame(host, this.clock);
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
  private setView(view: Partial<Pick<this, 'phase' | 'methodSource'>>): void {
    Object.assign(this, view);
    this.host.requestUpdate();
  }

  /**
   * Runs the flow for one payment and resolves with its final state; never rejects for payment outcomes.
   * Throws a clear error for a setup mistake (no endpoint), and keeps the secret handed in, which proves
   * ownership of `reference` on every later call.
   */
  start(
    reference: string,
    action: ThreeDSAction,
    clientSecret?: string,
  ): Promise<FinalPaymentState> {
    const api = this.api;
    if (clientSecret) api.rememberSecret(reference, clientSecret);
    return this.run(reference, async (signal) => {
      let next = action;
      if (this.version === 2 && next.version === 2 && next.step === 'method') {
        const answer = await this.methodStep(reference, next, signal);
        if (answer.status !== 'authenticating') return answer;
        next = answer.threeDS;
      }
      const request = challengeRequest(next, this.version);
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
      this.setView({ phase: 'challenge' });
      const api = this.api;
      const shown = await this.frame.open(
        reference,
        this.version,
        current,
        api,
        signal,
        this.connection.signal,
      );
      // Out of time, but the bank's answer may be at the shop right now: the middleware ends it or tells.
      if (shown === 'timeout') return await this.confirmCancel(reference, signal, true);
      if (shown !== 'detached')
        return shown && !signal.aborted
          ? shown.state
          : this.failure(reference, 'aborted', 'failed');
      this.setView({ phase: 'idle' });
      await this.connection.whenConnected(signal);
      if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
      this.setView({ phase: 'resuming' });
      const state = await api.payment(reference);
      if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
      if (state.status === 'authenticating')
        current = challengeRequest(state.threeDS, this.version) ?? current;
      // Unreadable for now: post it again anyway; the polls tell when the gateway has decided.
      else if (!isTransient(state)) return state;
    }
  }

  /**
   * 3-D Secure 2's method step: the method content as its own document in a hidden frame, Step 2 confirm
   * `methodTimeout` ms after it loaded; resolves with the confirm's answer (a challenge, or final).
   */
  private async methodStep(
    reference: string,
    action: Extract<ThreeDSAction, { step: 'method' }>,
    signal: AbortSignal,
  ): Promise<PaymentState> {
    const { host, clock } = this;
    const wait = this.methodTimeout();
    const loaded = new Promise<void>((resolve) => (this.methodLoaded = resolve));
    this.setView({
      methodSource: action.methodUrl
        ? { src: action.methodUrl }
        : { srcdoc: methodHtml(action.tdsMethodContent) },
      phase: 'method',
    });
    host.dispatchEvent(createPg3dsStartEvent({ reference, version: 2, step: 'method' }));
    // A frame that never loads (blocked, offline) must not hold the payment: go on without it.
    await Promise.race([loaded, sleep(Math.max(METHOD_LOAD_LIMIT_MS, wait), signal, clock)]);
    this.methodLoaded = undefined;
    const frame = host.renderRoot.querySelector<HTMLIFrameElement>('iframe[part=method-frame]');
    if (frame) await methodPosted(frame, METHOD_POST_LIMIT_MS, signal);
    // The wait is the gateway's: a method step that is slow or silent means "continue", not an error.
    await sleep(wait, signal, clock);
    if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
    const answer = await this.api.confirmMethodAt(action.confirmUrl, reference);
    this.setView({ phase: 'idle', methodSource: undefined });
    return answer.status === 'authenticating' ? answer : this.finalState(answer, reference);
  }

  /** The method frame's load event (the view calls it). */
  onMethodLoad(): void {
    this.methodLoaded?.();
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
