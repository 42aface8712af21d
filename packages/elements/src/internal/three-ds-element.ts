import { ContextConsumer } from '@lit/context';
import { html, LitElement, nothing, type PropertyDeclarations } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { CheckoutApi } from '../api/client.js';
import type { FinalPaymentState, KnownCode, PaymentState, ThreeDSAction } from '../api/types.js';
import { checkoutContext, type CheckoutContext } from '../context.js';
import { createPg3dsCheckingEvent } from '../events/3ds-checking.js';
import { createPg3dsCompleteEvent } from '../events/3ds-complete.js';
import { createPg3dsStartEvent } from '../events/3ds-start.js';
import {
  createTranslator,
  updateOnTableLoad,
  type Messages,
  type Translate,
} from '../i18n/localize.js';
import { challengeDeadline } from './challenge-deadline.js';
import { isTransient, waitForCompletion } from './completion.js';
import { ConnectionController } from './connection.js';
import { ServerStylesController } from './server-styles.js';
import { PageSchemeController } from './page-scheme.js';
import { shopperMessage } from './failure-message.js';
import { sleep } from './sleep.js';
import { postIntoFrame } from './post-into-frame.js';
import { pickChallengeWindow, type ChallengeWindow } from './window-size.js';

export type Phase = 'idle' | 'method' | 'challenge' | 'resuming';

/** What is posted into the challenge frame, and where the completion page may come from. */
export interface ChallengeRequest {
  acsUrl: string;
  fields: Record<string, string>;
  callbackOrigin?: string | undefined;
}

let frameCounter = 0;

/** What `<pg-3ds-v2>` and `<pg-3ds-v1>` share: the API, the challenge frame, cancel, timeout, cleanup. */
export abstract class ThreeDSElement extends LitElement {
  /** A move (disconnect, then connect) pauses the flow; it never ends it. */
  protected readonly connection = new ConnectionController(this);

  private readonly serverStyles = new ServerStylesController(this);

  /** `appearance="auto"` follows the page's own colours. */
  private readonly pageScheme = new PageSchemeController(this);

  static override properties: PropertyDeclarations = {
    checkout: { state: true, attribute: false },
    phase: { state: true, attribute: false },
    methodSource: { state: true, attribute: false },
    challengeWindow: { state: true, attribute: false },
    frameName: { state: true, attribute: false },
    bankLoaded: { state: true, attribute: false },
    timeoutWarning: { state: true, attribute: false },
    endpoint: {},
    challengeTimeout: { type: Number, attribute: 'challenge-timeout' },
    pollInterval: { type: Number, attribute: 'poll-interval' },
    locale: { reflect: true },
    messages: { attribute: false },
    appearance: { reflect: true },
  };
  private readonly tableLoad = updateOnTableLoad(this);

  private readonly consumer = new ContextConsumer(this, {
    context: checkoutContext,
    subscribe: true,
    callback: (value) => (this.checkout = value),
  });

  protected checkout?: CheckoutContext | undefined;

  protected phase: Phase = 'idle';
  protected methodSource?: { src?: string; srcdoc?: string } | undefined;
  protected challengeWindow: ChallengeWindow = { code: '02', width: 390, height: 400 };
  protected frameName = '';
  /** The bank's page has arrived in the challenge frame (until then a spinner says it is loading). */
  protected bankLoaded = false;
  /** Seconds left when the shopper was warned that the challenge is about to time out (0: no warning). */
  protected timeoutWarning = 0;
  private moreTime?: () => void;

  /** The middleware's mount URL; the drop-in's when inside one. */
  endpoint = '';

  /** Milliseconds a challenge may take before it ends as `authentication_timeout`. */
  challengeTimeout = 600_000;

  /** Milliseconds between status reads while a challenge is open (the completion message may never come). */
  pollInterval = 2000;

  /** Locale of the messages; the drop-in's when inside one. */
  locale = 'en';

  /** Per-string overrides of the translation table. */
  messages: Partial<Messages> = {};

  /** Light or dark defaults (`light`, `dark`, `auto`). */
  appearance: 'light' | 'dark' | 'auto' = 'light';

  private flow?: AbortController | undefined;
  private cancelRequested?: (() => void) | undefined;
  /** Standalone, one API object per endpoint, so the secrets it keeps outlive a single call. */
  private ownApi?: [endpoint: string, api: CheckoutApi] | undefined;

  protected get t(): Translate {
    return this.checkout?.t ?? createTranslator(this.locale, this.messages);
  }

  protected get api(): CheckoutApi {
    if (this.checkout?.api) return this.checkout.api;
    if (!this.endpoint)
      throw new TypeError(
        `<${this.localName}> needs an endpoint attribute or a <pg-checkout> around it`,
      );
    if (this.ownApi?.[0] !== this.endpoint)
      this.ownApi = [this.endpoint, new CheckoutApi(this.endpoint)];
    return this.ownApi[1];
  }

  /**
   * Before a flow: throws a clear error for a setup mistake (no endpoint), and keeps the secret handed to
   * `start`, which proves ownership of `reference` on every later call.
   */
  protected prepare(reference: string, clientSecret?: string): void {
    const api = this.api;
    if (clientSecret) api.rememberSecret(reference, clientSecret);
  }

  /** True while a flow runs. */
  get active(): boolean {
    return this.flow !== undefined;
  }

  /** A state-preserving `moveBefore()` keeps the frames as they are: nothing to pause or post again. */
  connectedMoveCallback(): void {}

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
  protected async runFlow(
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
      if (!this.isConnected) await this.connection.whenConnected(flow.signal);
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
        this.phase = 'idle';
        this.methodSource = undefined;
      }
    }
    // Whatever the middleware wrote, the caller gets the localized sentence for this outcome.
    result = { ...result, message: shopperMessage(result, this.t) };
    this.dispatchEvent(
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
   * may already be at the shop. The frame goes, the state is `checking` (`pg-threeds-checking`), and only the middleware's answer
   * to the cancel (the payment ended uncharged, or what the bank's answer decided) is the outcome.
   */
  private async confirmCancel(
    reference: string,
    signal: AbortSignal,
    timedOut = false,
  ): Promise<FinalPaymentState> {
    this.phase = 'resuming';
    this.dispatchEvent(createPg3dsCheckingEvent({ reference }));
    for (let wait = this.pollInterval; ; wait = Math.min(wait * 2, 30_000)) {
      const state = await this.api.cancelPayment(reference);
      if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
      // A middleware without the route cannot say whether the bank's answer came: never "no payment".
      if (state.status === 'failed' && state.code === 'not_found')
        return this.failure(reference, 'outcome_unknown', 'outcomeUnknown');
      if (timedOut && state.status === 'failed' && state.code === 'authentication_cancelled')
        return this.failure(reference, 'authentication_timeout', 'authenticationTimeout');
      if (state.status !== 'authenticating' && !isTransient(state)) return state;
      await sleep(wait, signal);
    }
  }

  /**
   * Runs the challenge until the gateway decides. A move or removal closes the frame (a moved iframe
   * reloads, so the bank's page is lost) and stops polling; once the element is back, the state is read:
   * an outcome reached meanwhile ends the flow, a payment still waiting gets its challenge posted again
   * (the request from that read, via `reopen`, else the one before), and polling resumes.
   */
  protected async challenge(
    reference: string,
    version: 1 | 2,
    request: ChallengeRequest,
    reopen: (action: ThreeDSAction) => ChallengeRequest | undefined,
    signal: AbortSignal,
  ): Promise<FinalPaymentState> {
    let current = request;
    for (;;) {
      await this.connection.whenConnected(signal);
      if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
      const shown = await this.showChallenge(reference, version, current, signal);
      if (shown !== 'detached') return shown;
      this.phase = 'idle';
      await this.connection.whenConnected(signal);
      if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
      this.phase = 'resuming';
      const state = await this.api.payment(reference);
      if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
      if (state.status === 'authenticating') current = reopen(state.threeDS) ?? current;
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
    version: 1 | 2,
    request: ChallengeRequest,
    signal: AbortSignal,
  ): Promise<FinalPaymentState | 'detached'> {
    const attached = this.connection.signal;
    frameCounter += 1;
    this.frameName = `pg-3ds-${version}-${Date.now().toString(36)}-${frameCounter}`;
    this.challengeWindow = pickChallengeWindow(
      this.getBoundingClientRect().width || this.parentElement?.clientWidth || 390,
      window.innerHeight,
    );
    this.bankLoaded = false;
    this.phase = 'challenge';
    await this.updateComplete;
    if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
    if (attached.aborted) return 'detached';
    this.reveal();
    const frame = this.renderRoot.querySelector<HTMLIFrameElement>('iframe[part=frame]');
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
        pollInterval: this.pollInterval,
        signal: watch.signal,
      });
      this.dispatchEvent(createPg3dsStartEvent({ reference, version, step: 'challenge' }));
      // Focus goes in once the bank's page is there: focused any earlier, that page never gets it.
      frame.addEventListener(
        'load',
        () => {
          // The empty document a new frame starts with is not the bank's page.
          if (frame.contentDocument?.URL === 'about:blank') return;
          this.bankLoaded = true;
          this.focusFrame(frame);
          this.reveal();
        },
        { signal: watch.signal },
      );
      postIntoFrame(this.renderRoot as ShadowRoot, request.acsUrl, this.frameName, request.fields);
      this.timeoutWarning = 0;
      const deadline = challengeDeadline(
        this.challengeTimeout,
        watch.signal,
        (left) => (this.timeoutWarning = left),
      );
      this.moreTime = () => {
        this.timeoutWarning = 0;
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
      this.timeoutWarning = 0;
    }
  }

  private focusFrame(frame: HTMLIFrameElement): void {
    // Already focused from an earlier load: step out first, or the new page would not get focus.
    if ((this.renderRoot as ShadowRoot).activeElement === frame)
      this.renderRoot
        .querySelector<HTMLElement>('[part=challenge]')
        ?.focus({ preventScroll: true });
    // Focus scrolls in its own way per engine (Firefox puts the frame's top at the screen's, hiding the close control).
    frame.focus({ preventScroll: true });
  }

  /**
   * Scrolls the challenge (close control, then the bank's page) to the top of the screen unless all of it is
   * on screen: on a phone or zoomed in it opens below the form, where only the bank's title would show.
   */
  private reveal(): void {
    const box = this.renderRoot.querySelector<HTMLElement>('[part=challenge]');
    const rect = box?.getBoundingClientRect();
    if (rect && (rect.top < 0 || rect.bottom > innerHeight))
      box!.scrollIntoView({ block: 'start' });
  }

  /** Escape cancels the bank check, wherever focus is in the element (a cross-origin page keeps its keys). */
  private onChallengeKeydown(event: KeyboardEvent): void {
    if (this.phase !== 'challenge') return;
    if (event.key === 'Escape') {
      event.preventDefault();
      this.cancel();
      return;
    }
    // A Tab seen here while the frame element has focus never reached the bank's page (WebKit keeps keys
    // with the parent): step back to the control before the frame so this Tab goes into the page.
    const root = this.renderRoot as ShadowRoot;
    if (event.key === 'Tab' && !event.shiftKey && root.activeElement?.localName === 'iframe')
      root.querySelector<HTMLElement>('[part=cancel]')?.focus();
  }

  /** A state read after 3-D Secure must be final; one still authenticating means the bank gave no result. */
  protected finalState(state: PaymentState, reference: string): FinalPaymentState {
    if (state.status !== 'authenticating') return state;
    return this.failure(reference, 'authentication_failed', 'authenticationFailed');
  }

  protected failure(reference: string, code: KnownCode, key: keyof Messages): FinalPaymentState {
    return { success: false, status: 'failed', reference, code, message: this.t(key) };
  }

  protected renderMethodFrame() {
    if (this.phase !== 'method' || !this.methodSource) return nothing;
    return html`<iframe
      class="method"
      part="method-frame"
      title=${this.t('authenticating')}
      aria-hidden="true"
      tabindex="-1"
      src=${this.methodSource.src ?? nothing}
      .srcdoc=${this.methodSource.srcdoc ?? nothing}
      @load=${this.onMethodLoad}
    ></iframe>`;
  }

  /** Called on the method frame's first load (v2 only). */
  protected onMethodLoad(): void {}

  /** The warning before the challenge times out, or '' while there is time. */
  private timeoutText(): string {
    const seconds = this.timeoutWarning;
    return seconds ? this.t('challengeTimeoutWarning', { seconds }) : '';
  }

  protected renderChallenge() {
    if (this.phase !== 'challenge') return nothing;
    const size = this.challengeWindow;
    return html`<div
      part="challenge"
      class="challenge"
      data-window-size=${size.code}
      tabindex="-1"
      @keydown=${this.onChallengeKeydown}
    >
      <div class="timeout">
        ${this.checkout ? html`<p role="status">${this.timeoutText() || nothing}</p>` : nothing}
        ${
          this.timeoutWarning
            ? html`<button
                part="more-time"
                class="secondary"
                type="button"
                @click=${() => this.moreTime?.()}
              >
                ${this.t('challengeMoreTime')}
              </button>`
            : nothing
        }
      </div>
      <button
        part="cancel"
        class="close"
        type="button"
        aria-label=${this.t('cancelChallenge')}
        title=${this.t('cancelChallenge')}
        @click=${() => this.cancel()}
      >
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
          <path
            d="M3 3l10 10M13 3L3 13"
            stroke="currentColor"
            stroke-width="2"
            stroke-linecap="round"
          />
        </svg>
      </button>
      ${
        this.bankLoaded
          ? nothing
          : html`<span class="loading" aria-hidden="true"><span class="spinner"></span></span>`
      }
      ${keyed(
        this.frameName,
        html`<iframe
          part="frame"
          name=${this.frameName}
          title=${this.t('challengeTitle')}
          width=${size.width ?? '100%'}
          height=${size.height ?? '100%'}
        ></iframe>`,
      )}
    </div>`;
  }

  override render() {
    // Inside the drop-in, its own region (in the tree from its first render) speaks for each step.
    if (this.checkout) return html`${this.renderMethodFrame()}${this.renderChallenge()}`;
    const checking = this.phase === 'method' || this.phase === 'resuming';
    const warning = this.timeoutText();
    const status = checking
      ? this.t('authenticating')
      : this.phase === 'challenge'
        ? warning || this.t('challengeAnnouncement')
        : '';
    // One region, always in the tree (never hidden) so screen readers announce what is put in it.
    // prettier-ignore
    return html`<div part="status" class="status ${this.phase === 'challenge' && !warning ? 'visually-hidden' : ''}" role="status" lang=${this.locale}>${checking ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}${status || nothing}</div>
      ${this.renderMethodFrame()}${this.renderChallenge()}`;
  }
}
