import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { CheckoutApi } from '../api/client.js';
import type { CheckoutConfig, PaymentRequest, SavedCard } from '../api/types.js';
import type { PaymentSource } from '../shared/context.js';
import { createPgFailedEvent } from '../shared/events/failed.js';
import { createPgStatusChangeEvent } from '../shared/events/status-change.js';
import type { CheckoutStatus } from '../shared/events/status.js';
import { ConnectionController } from '../shared/connection.js';
import { failure } from './failure.js';
import type { Clock } from '../shared/sleep.js';
import { loadRunningPayment, orderMark } from './running-payment.js';
import { flowReady } from './flow-ready.js';
import type { LocalizeController } from '../shared/localize-controller.js';
import type {
  CheckoutMessage,
  FlowOwner,
  PaymentSteps,
  RedirectMethod,
  ThreeDSStep,
} from './payment-flow.steps.js';

export type { CheckoutMessage, RedirectMethod, ThreeDSStep } from './payment-flow.steps.js';

/** The element that holds the flow: its properties are the flow's settings and where it reflects its state. */
export interface PaymentFlowHost extends ReactiveControllerHost, HTMLElement {
  endpoint: string;
  savedCards: boolean;
  /** The 3-D Secure element's settings; without them it keeps its defaults. */
  appearance?: string;
  methodTimeout?: number;
  challengeTimeout?: number;
  pollInterval: number;
  status: CheckoutStatus;
  reference: string;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

export interface PaymentFlowOptions {
  /** The host's strings: the outcome sentence in events is the one it shows. */
  localize: LocalizeController;
  /** Once the host rendered what was just set, puts focus (and the screen) on its message region. */
  focusMessage: () => Promise<void>;
  /** The middleware's client for an endpoint (default: `new CheckoutApi(endpoint)`). */
  api?: ((endpoint: string) => CheckoutApi) | undefined;
  /** The timers of the waits between order reads (default: the page's). */
  clock?: Clock | undefined;
}

/**
 * The drop-in's payment: its order (`GET {endpoint}/config`), Pay and the other methods' pages, the payment a
 * reload interrupted, the order asked after a lost answer, a reload or a return from the back-forward cache.
 * It owns the flow's state: read through getters, changed only through its methods (its steps too, which
 * load on demand, flow-ready.ts, as a PaymentSteps it holds), and each change renders the host again.
 */
export class PaymentFlowController implements ReactiveController, FlowOwner {
  readonly host: PaymentFlowHost;
  readonly options: PaymentFlowOptions;
  readonly localize: LocalizeController;

  /** A move (KeepAlive, portal, `appendChild` elsewhere) pauses a payment; outcomes wait for the return. */
  readonly connection: ConnectionController;

  private _api?: CheckoutApi | undefined;
  private _inFlight = false;
  /** The steps after Pay, once loaded (the script tag fetches them with 3-D Secure). */
  private steps?: PaymentSteps | undefined;

  private configRequest = 0;
  private configLoad?: Promise<void> | undefined;

  private _config?: CheckoutConfig | undefined;
  private _storedCards: SavedCard[] = [];
  private _message?: CheckoutMessage | undefined;
  private _threeDS?: ThreeDSStep | undefined;

  /** `options.api` and `options.clock` are for tests: a fake middleware, a fake clock. */
  constructor(host: PaymentFlowHost, options: PaymentFlowOptions) {
    this.host = host;
    this.options = options;
    this.localize = options.localize;
    this.connection = new ConnectionController(host);
    host.addController(this);
  }

  /** The middleware's client for the endpoint (none on the server or without an endpoint). */
  get api(): CheckoutApi | undefined {
    return this._api;
  }

  /** True while a payment (or a redirect, or a resume) runs: nothing else starts meanwhile. */
  get inFlight(): boolean {
    return this._inFlight;
  }

  /** The order as the middleware last told it (the new total after `amount_changed`). */
  get config(): CheckoutConfig | undefined {
    return this._config;
  }

  get storedCards(): SavedCard[] {
    return this._storedCards;
  }

  /** What the message region says. */
  get message(): CheckoutMessage | undefined {
    return this._message;
  }

  /** The 3-D Secure step to render, while one runs. */
  get threeDS(): ThreeDSStep | undefined {
    return this._threeDS;
  }

  /**
   * The 3-D Secure element while a step runs, nothing otherwise. Its template ships with the steps (the
   * script tag's pg-checkout.3ds.js), which have loaded whenever there is a step to show.
   */
  renderThreeDS(): unknown {
    return this._threeDS && this.steps?.renderThreeDS(this._threeDS);
  }

  setMessage(message: CheckoutMessage | undefined): void {
    this._message = message;
    this.host.requestUpdate();
  }

  showThreeDS(step: ThreeDSStep | undefined): void {
    this._threeDS = step;
    this.host.requestUpdate();
  }

  /** The payment's reference, reflected on the host ('' for none). */
  setReference(reference: string): void {
    this.host.reference = reference;
  }

  /** The order as the middleware now tells it (the new total after `amount_changed`). */
  setConfig(config: CheckoutConfig | undefined): void {
    this._config = config;
    this.host.requestUpdate();
  }

  /** Runs `work` unless a payment (or a redirect, or a resume) runs already; `inFlight` meanwhile. */
  async runAlone(work: () => Promise<void>): Promise<void> {
    if (this._inFlight) return;
    this._inFlight = true;
    try {
      await work();
    } finally {
      this._inFlight = false;
    }
  }

  hostConnected(): void {
    addEventListener('pageshow', this.onPageShow);
  }

  hostDisconnected(): void {
    removeEventListener('pageshow', this.onPageShow);
  }

  /** A new `endpoint`: a new API (and its secrets), its order read, and the payment it may have running. */
  useEndpoint(endpoint: string, onServer: boolean): void {
    // On the server there is no page URL to resolve against and no network: the client fetches config.
    const api = (this._api =
      endpoint && !onServer ? (this.options.api ?? newApi)(endpoint) : undefined);
    void this.loadConfig();
    if (api) void this.host.updateComplete.then(() => this.resume(api));
  }

  loadConfig(): Promise<void> {
    return (this.configLoad = this.readConfig());
  }

  private async readConfig(): Promise<void> {
    const request = (this.configRequest += 1);
    const api = this._api;
    if (!api) return;
    const config = await api.config();
    if (request !== this.configRequest) return;
    this.setConfig(config.success ? config : undefined);
    if (config.success && config.savedCards && this.host.savedCards) {
      const cards = await api.cards();
      if (request === this.configRequest && Array.isArray(cards)) {
        this._storedCards = cards;
        this.host.requestUpdate();
      }
    }
  }

  /** Reads the order again; resolves once the newest read (another refresh, a new endpoint) is in. */
  async refresh(): Promise<void> {
    void this.loadConfig();
    for (let read; read !== this.configLoad;) await (read = this.configLoad);
  }

  setStatus(next: CheckoutStatus): void {
    const previous = this.host.status;
    if (previous === next) return;
    this.host.status = next;
    this.host.dispatchEvent(createPgStatusChangeEvent({ status: next, previous }));
  }

  /** The steps after Pay, loaded with 3-D Secure in the script tag; undefined when that file cannot be loaded. */
  private async loadSteps(): Promise<PaymentSteps | undefined> {
    const loaded = await flowReady();
    return (this.steps ??= loaded && new loaded.PaymentSteps(this));
  }

  /** The payment for one card form submission: create, 3-D Secure when asked, then the outcome. */
  pay = (request: PaymentRequest, form: PaymentSource): Promise<void> =>
    this.runAlone(async () => {
      this.setMessage(undefined);
      this.setStatus('submitting');
      this.setReference('');
      // The script tag's payment flow is a file of its own: no payment starts that it could not finish.
      const steps = await this.loadSteps();
      await (steps ? steps.pay(request, form) : this.notLoaded());
    });

  /** Another method's payment page: said at once, while the script tag may still be fetching the flow. */
  async redirect(method: RedirectMethod): Promise<void> {
    const api = this._api;
    if (!api) return;
    await this.runAlone(async () => {
      this.setMessage({ key: 'redirecting' });
      this.setStatus('submitting');
      const steps = await this.loadSteps();
      await (steps ? steps.redirect(api, method) : this.notLoaded());
    });
  }

  /**
   * Picks up the payment a reload interrupted, or (also the only thing on a return from the back-forward
   * cache) asks the order this browser asked to pay; nothing to load when there is neither.
   */
  private async resume(api: CheckoutApi, recallOnly?: boolean): Promise<void> {
    const running = recallOnly ? undefined : loadRunningPayment(api.endpoint);
    if (this.inFlight || !(running || orderMark(api.endpoint))) return;
    const steps = await this.loadSteps();
    if (steps) await (running ? steps.resumePayment(api, running) : steps.recallOrder(api));
    else if (running && !this.inFlight) await this.notLoaded();
  }

  /**
   * The steps after Pay could not be loaded (the script tag's pg-checkout.3ds.js): said like any failure,
   * and the payment is not given up (a reload tries again).
   */
  private async notLoaded(): Promise<void> {
    this.setMessage({ outcome: failure('not_loaded') });
    this.setStatus('failed');
    this.host.dispatchEvent(
      createPgFailedEvent({ code: 'not_loaded', message: this.localize.t('unavailable') }),
    );
    await this.options.focusMessage();
  }

  private onPageShow = (event: PageTransitionEvent): void => {
    if (!event.persisted || !this._api || this._inFlight) return;
    // Back from a payment page: "Taking you to the payment page…" is over.
    if (this.host.status === 'submitting') this.reset();
    void this.resume(this._api, true);
  };

  /** A closed bank check is not "no payment" until the middleware says so. */
  threeDSChecking(): void {
    this.setStatus('checking');
    this.setMessage({ key: 'checking' });
  }

  /** Back to `idle` with no message, for a fresh attempt. */
  reset(): void {
    if (this._inFlight) return;
    this.setMessage(undefined);
    this.setStatus('idle');
  }

  /** The order is over for this page (paid, or an outcome that closes it): no form, no other methods. */
  get orderClosed(): boolean {
    const { status } = this.host;
    const m = this._message;
    return (
      status === 'approved' ||
      status === 'pending' ||
      (!!m &&
        'outcome' in m &&
        // An outcome comes from the steps (or is `not_loaded`, which closes nothing): their table is there.
        !!this.steps?.closes((m.outcome as { code?: string }).code ?? ''))
    );
  }
}

const newApi = (endpoint: string): CheckoutApi => new CheckoutApi(endpoint);
