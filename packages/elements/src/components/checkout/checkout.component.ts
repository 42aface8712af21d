import { ContextProvider } from '@lit/context';
import {
  html,
  isServer,
  LitElement,
  nothing,
  type PropertyValues,
  type PropertyDeclarations,
} from 'lit';
import { CheckoutApi } from '../../api/client.js';
import { meaningOf } from '../../api/codes.js';
import type {
  CheckoutConfig,
  FinalPaymentState,
  PaymentMethod,
  PaymentRequest,
  PaymentState,
  SavedCard,
  ThreeDSAction,
} from '../../api/types.js';
import { checkoutContext, type CheckoutContext, type PaymentSource } from '../../context.js';
import { createPgApprovedEvent } from '../../events/approved.js';
import { createPgDeclinedEvent } from '../../events/declined.js';
import { createPgFailedEvent } from '../../events/failed.js';
import { createPgPendingEvent } from '../../events/pending.js';
import { createPgRedirectEvent } from '../../events/redirect.js';
import { createPgStatusChangeEvent } from '../../events/status-change.js';
import type { CheckoutStatus } from '../../events/status.js';
import {
  createTranslator,
  updateOnTableLoad,
  type MessageKey,
  type Messages,
} from '../../i18n/localize.js';
import { quickAmount } from '../../i18n/amount.js';
import { shopperMessage } from '../../internal/failure-message.js';
import { ConnectionController } from '../../internal/connection.js';
import {
  clearRunningPayment,
  loadRunningPayment,
  orderMark,
  saveRunningPayment,
} from '../../internal/running-payment.js';
import { threeDSReady } from '../../internal/three-ds-ready.js';
import { ServerStylesController } from '../../internal/server-styles.js';
import { PageSchemeController } from '../../internal/page-scheme.js';
import { themeStyles } from '../../styles/theme.js';
import type { Pg3dsV1 } from '../3ds-v1/3ds-v1.component.js';
import type { Pg3dsV2 } from '../3ds-v2/3ds-v2.component.js';
import { checkoutStyles } from './checkout.styles.js';

type RedirectMethod = Exclude<PaymentMethod, 'card'>;
const redirectMethods: RedirectMethod[] = ['hosted', 'eft', 'redirect'];
const methodLabel: Record<RedirectMethod, MessageKey> = {
  hosted: 'methodHosted',
  eft: 'methodEft',
  redirect: 'methodRedirect',
};

/** The inner elements' parts, forwarded so `pg-checkout::part(submit)` themes the built-in form. */
const cardFormParts =
  'form,field,label,input,brand,brands,error,saved-cards,save-card,submit,status:form-status';
const threeDSParts = 'challenge,frame,cancel,method-frame';

/** A region for the amount when the locale names none: the shop's currency says where it is. */
const currencyRegion: Record<string, string> = { ZAR: 'ZA' };

/** The locale to format an amount in: `en` with rands is `en-ZA` ("R 149,00"), not "ZAR 149.00". */
export function amountLocale(locale: string, currency: string): string {
  if (/[-_]/.test(locale)) return locale.replace('_', '-');
  const region = currencyRegion[currency];
  return region ? `${locale}-${region}` : locale;
}

/**
 * Number formats by "locale|currency" (null: Intl refused them). A page's first NumberFormat loads Intl's
 * locale data, 20-60 ms on this machine, so it is made once the form is on screen rather than before.
 */
const amountFormats = new Map<string, Intl.NumberFormat | null>();

function amountFormat(locale: string, currency: string): Intl.NumberFormat | null {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency });
  } catch {
    return null;
  }
}

/** Runs `work` when the browser is idle after painting, and within 200 ms. */
function whenIdle(work: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: 200 });
  else setTimeout(work, 16);
}

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
 * @tag pg-checkout
 * @summary The drop-in: a card form, 3-D Secure v1 and v2 and the other payment methods, wired to the middleware.
 *
 * Runs the whole flow against the middleware at `endpoint` and reflects it in `status` (`idle`, `submitting`,
 * `authenticating`, `checking`, `approved`, `declined`, `failed`, `pending`). An answer lost after the request
 * may have reached the shop is never shown as a failure: it is `checking` until `GET {endpoint}/order` tells. It shares its configuration with the parts
 * inside it through @lit/context, so a merchant can put their own `<pg-card-form>` in the default slot.
 *
 * It proves to the middleware that it owns a payment with the create answer's `clientSecret`, kept in its
 * `CheckoutApi` and, with the reference, in `sessionStorage` while the payment runs: after a reload it reads
 * that payment's state and shows the outcome or reopens 3-D Secure. The entry goes once the payment ended.
 *
 * @slot - Replaces the built-in card form (put a `<pg-card-form>` here to lay it out yourself).
 *
 * @event pg-status-change - `status` changed (detail: status, previous).
 * @event pg-submit - The card form was submitted (from the card form; never card data).
 * @event pg-threeds-start - A 3-D Secure step began (from the 3-D Secure element).
 * @event pg-threeds-checking - The shopper closed the bank check; its outcome is being confirmed (from the 3-D Secure element).
 * @event pg-threeds-complete - A 3-D Secure flow ended (from the 3-D Secure element).
 * @event pg-approved - The payment was approved (detail: reference, message).
 * @event pg-pending - The payment is pending (detail: reference, message).
 * @event pg-declined - Declined; the shopper can try another card (detail: reference, code, originalErrorCode, message).
 * @event pg-failed - Could not be completed (detail: reference, code, message).
 * @event pg-redirect - About to navigate to a payment page (detail: method, reference, redirectUrl). Cancelable.
 *
 * @csspart base - The wrapper.
 * @csspart message - The localized result message (a live region).
 * @csspart card - The card form's wrapper.
 * @csspart three-ds - The 3-D Secure element's wrapper.
 * @csspart retry - The "try another card" / "try again" button after a decline or failure.
 * @csspart form - The built-in card form (forwarded from `<pg-card-form>`, like the parts below).
 * @csspart field - Each label, input and message group of the card form.
 * @csspart label - Each card field label.
 * @csspart input - Each card text input.
 * @csspart brand - The detected card brand's mark.
 * @csspart brands - The accepted brands' marks.
 * @csspart error - Each card field's message.
 * @csspart saved-cards - The saved card choice.
 * @csspart save-card - The "save this card" option.
 * @csspart submit - The pay button.
 * @csspart form-status - The card form's live region (its `status` part).
 * @csspart challenge - The 3-D Secure challenge wrapper (forwarded from `<pg-3ds-v2>` / `<pg-3ds-v1>`).
 * @csspart frame - The bank's challenge frame.
 * @csspart cancel - The button that cancels the bank check.
 * @csspart method-frame - The hidden 3-D Secure method frame.
 * @csspart methods - The other payment methods.
 * @csspart method - Each other payment method's button.
 *
 * @cssproperty --pg-max-width - Widest the drop-in grows (default 40rem).
 * @cssproperty --pg-padding - Inner padding (default none: it sits on the page's own surface).
 * @cssproperty --pg-color-background - Field background, and the drop-in's when set (default none).
 * @cssproperty --pg-color-surface - Message box background.
 * @cssproperty --pg-color-text - Text colour.
 * @cssproperty --pg-color-text-muted - Hint colour.
 * @cssproperty --pg-color-border - Field and frame border colour.
 * @cssproperty --pg-color-primary - Button colour.
 * @cssproperty --pg-color-on-primary - Button text colour.
 * @cssproperty --pg-color-error - Error and failure message colour.
 * @cssproperty --pg-color-success - Approved message colour.
 * @cssproperty --pg-focus-ring - Focus ring box-shadow.
 * @cssproperty --pg-radius - Corner radius.
 * @cssproperty --pg-spacing - Gap between fields.
 * @cssproperty --pg-font-family - Font family.
 * @cssproperty --pg-font-size - Base font size.
 * @cssproperty --pg-challenge-full-height - Height of the full-width (05) challenge window (default: the screen less 1rem).
 */
export class PgCheckout extends LitElement {
  static override styles = [themeStyles, checkoutStyles];
  static override properties: PropertyDeclarations = {
    context: { state: true, attribute: false },
    config: { state: true, attribute: false },
    storedCards: { state: true, attribute: false },
    message: { state: true, attribute: false },
    threeDS: { state: true, attribute: false },
    endpoint: {},
    locale: { reflect: true },
    messages: { attribute: false },
    methods: {},
    savedCards: { type: Boolean, attribute: 'saved-cards' },
    appearance: { reflect: true },
    status: { reflect: true },
    reference: { reflect: true },
    methodTimeout: { type: Number, attribute: 'method-timeout' },
    challengeTimeout: { type: Number, attribute: 'challenge-timeout' },
    pollInterval: { type: Number, attribute: 'poll-interval' },
  };

  private readonly tableLoad = updateOnTableLoad(this);

  private readonly provider = new ContextProvider(this, { context: checkoutContext });

  /** A move (KeepAlive, portal, `appendChild` elsewhere) pauses a payment; outcomes wait for the return. */
  private readonly connection = new ConnectionController(this);

  private readonly serverStyles = new ServerStylesController(this);

  /** `appearance="auto"` follows the page's own colours. */
  private readonly pageScheme = new PageSchemeController(this);

  private context?: CheckoutContext | undefined;

  private config?: CheckoutConfig | undefined;
  private storedCards: SavedCard[] = [];
  /** What the message region says: an outcome (localized at render, so a locale switch applies) or a step. */
  private message?: { outcome: FinalPaymentState } | { key: MessageKey } | undefined;
  private threeDS?: { reference: string; action: ThreeDSAction } | undefined;

  /** URL where the middleware is mounted (for example `/checkout`). */
  endpoint = '';

  /** Locale of every message (`en`, `af`); other tags fall back to English. */
  locale = 'en';

  /** Per-string overrides of the translation table. */
  messages: Partial<Messages> = {};

  /** Methods to offer, space- or comma-separated: `card`, `hosted`, `eft`, `redirect`. Default: the middleware's. */
  methods = '';

  /** Offer the shopper's saved cards and "save this card" when the middleware supports them. */
  savedCards = false;

  /** `light`, `dark` or `auto` (follows the page it sits on: its background, else its `color-scheme`). */
  appearance: 'light' | 'dark' | 'auto' = 'light';

  /** Where the payment stands; reflected for CSS and tests. Read-only in practice. */
  status: CheckoutStatus = 'idle';

  /** The gateway reference of the current or last payment, once the middleware gave one. Reflected. */
  reference = '';

  /** Milliseconds between the 3-D Secure method frame's load and Step 2 confirm. */
  methodTimeout = 3000;

  /** Milliseconds a 3-D Secure challenge may take. */
  challengeTimeout = 600_000;

  /** Milliseconds between status reads while a 3-D Secure challenge is open. */
  pollInterval = 2000;

  private api?: CheckoutApi | undefined;
  private inFlight = false;
  private configRequest = 0;
  private configLoad?: Promise<void> | undefined;

  private get offered(): PaymentMethod[] {
    const chosen = this.methods
      .split(/[\s,]+/)
      .filter((m): m is PaymentMethod => m === 'card' || (redirectMethods as string[]).includes(m));
    if (chosen.length > 0) return chosen;
    return this.config?.methods.length ? this.config.methods : ['card'];
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('endpoint')) {
      // On the server there is no page URL to resolve against and no network: the client fetches config.
      this.api = this.endpoint && !isServer ? new CheckoutApi(this.endpoint) : undefined;
      void this.loadConfig();
      const api = this.api;
      if (api) void this.updateComplete.then(() => this.resume(api));
    }
    if (changed.has('savedCards') && !changed.has('endpoint')) void this.loadConfig();
    const t = createTranslator(this.locale, this.messages);
    const allowSave = this.savedCards && this.config?.savedCards === true;
    this.context = {
      api: this.api,
      locale: this.locale,
      messages: this.messages,
      t,
      savedCards: allowSave ? this.storedCards : [],
      allowSave,
      payLabel: this.payLabel(t),
      pay: this.pay,
    };
    this.provider.setValue(this.context);
  }

  /**
   * The pay button's "Pay R 100,00". The usual pairs (rands in `en` or `af`) are written without Intl, in
   * the same render as the order; others say plain "Pay" until the amount's number format exists.
   */
  private payLabel(t: CheckoutContext['t']): string | undefined {
    const config = this.config;
    if (!config) return undefined;
    const { currency } = config;
    const locale = amountLocale(this.locale, currency);
    const quick = quickAmount(locale, currency, config.amount);
    if (quick !== undefined) return t('payAmount', { amount: quick });
    const key = `${locale}|${currency}`;
    const format = amountFormats.get(key);
    if (format === undefined) {
      whenIdle(() => {
        if (!amountFormats.has(key)) amountFormats.set(key, amountFormat(locale, currency));
        this.requestUpdate();
      });
      return undefined;
    }
    return format ? t('payAmount', { amount: format.format(config.amount / 100) }) : undefined;
  }

  private loadConfig(): Promise<void> {
    return (this.configLoad = this.readConfig());
  }

  private async readConfig(): Promise<void> {
    const request = (this.configRequest += 1);
    const api = this.api;
    if (!api) return;
    const config = await api.config();
    if (request !== this.configRequest) return;
    this.config = config.success ? config : undefined;
    if (config.success && config.savedCards && this.savedCards) {
      const cards = await api.cards();
      if (request === this.configRequest && Array.isArray(cards)) this.storedCards = cards;
    }
  }

  private setStatus(next: CheckoutStatus): void {
    const previous = this.status;
    if (previous === next) return;
    this.status = next;
    this.dispatchEvent(createPgStatusChangeEvent({ status: next, previous }));
  }

  /** The payment for one card form submission: create, 3-D Secure when asked, then the outcome. */
  private pay = async (request: PaymentRequest, form: PaymentSource): Promise<void> => {
    const api = this.api;
    if (this.inFlight) return;
    this.inFlight = true;
    try {
      this.message = undefined;
      this.setStatus('submitting');
      this.reference = '';
      // The script tag's 3-D Secure is a file of its own: no payment starts that it could not finish.
      if (api && !(await threeDSReady())) {
        await this.finish(notLoaded(), form);
        return;
      }
      // Offline before anything is sent: the one case where "nothing was charged" is proven here.
      if (!navigator.onLine) {
        await this.finish(failure('offline'), form);
        return;
      }
      if (api) orderMark(api.endpoint, true);
      const state: PaymentState = api
        ? await api.createPayment({ ...request, shown: this.shown() })
        : failure('not_configured');
      this.showNewTotal(state);
      if (state.reference) this.reference = state.reference;
      // Kept for 3-D Secure, and for an answer that came while the drop-in was away (it may never be back).
      if (
        api &&
        state.reference &&
        state.clientSecret &&
        (state.status === 'authenticating' || !this.isConnected)
      )
        saveRunningPayment(api.endpoint, {
          reference: state.reference,
          clientSecret: state.clientSecret,
        });
      if (api) await this.conclude(api, state, form);
      else await this.finish(state as FinalPaymentState, form);
    } finally {
      this.inFlight = false;
    }
  };

  /** Runs a state to its outcome and says it. */
  private async conclude(api: CheckoutApi, state: PaymentState, form = noForm): Promise<void> {
    const final = await this.settle(api, state);
    // An outcome reached while the drop-in was away is said once it is back, never to a detached element.
    await this.connection.whenConnected();
    this.release(api, final);
    await this.finish(final, form);
  }

  /** The total on Pay, sent with it so the middleware charges no other (`amount_changed`). */
  private shown(): PaymentRequest['shown'] {
    const config = this.config;
    return config && { amount: config.amount, currency: config.currency };
  }

  /** After `amount_changed`: the order's new total goes on Pay for the shopper's next tap. */
  private showNewTotal(answer: object): void {
    if (this.config && 'order' in answer)
      this.config = { ...this.config, ...(answer.order as object) };
  }

  /** Picks up the payment a reload interrupted: shows its outcome, or reopens 3-D Secure. */
  private async resume(api: CheckoutApi): Promise<void> {
    const running = loadRunningPayment(api.endpoint);
    if (this.inFlight) return;
    if (!running) return this.recall(api);
    this.inFlight = true;
    try {
      api.rememberSecret(running.reference, running.clientSecret);
      this.reference = running.reference;
      this.setStatus('submitting');
      let state: PaymentState = await api.payment(running.reference);
      if (api !== this.api) return;
      if (state.status === 'failed' && state.code === 'not_found') {
        // Nothing the middleware knows this browser owns: start afresh.
        clearRunningPayment(api.endpoint, running.reference);
        this.reference = '';
        this.setStatus('idle');
        return;
      }
      if (state.status === 'authenticating' && !isThreeDSAction(state.threeDS))
        state = failure('bad_response', running.reference);
      await this.conclude(api, state);
    } finally {
      this.inFlight = false;
    }
  }

  /** Runs 3-D Secure when asked, and asks the order when the answer was lost, until an outcome is known. */
  private async settle(api: CheckoutApi, state: PaymentState): Promise<FinalPaymentState> {
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
    this.setStatus('checking');
    this.message = { key: 'checking' };
    await this.updateComplete;
    this.focusMessage();
    for (let wait = this.pollInterval; ; wait = Math.min(wait * 2, 30_000)) {
      await this.connection.whenConnected();
      const order = await api.order();
      if (order.success && order.status === 'open') return lost;
      if (order.success && order.status !== 'checking') {
        const { payment } = order;
        if (payment.reference) this.reference = payment.reference;
        return payment;
      }
      // A middleware without the route (or one that refuses this browser) cannot tell: say so, offer nothing.
      if (!order.success && /^(not_found|http_4)/.test(order.code))
        return failure('outcome_unknown');
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
  private async recall(api: CheckoutApi): Promise<void> {
    if (!orderMark(api.endpoint)) return;
    const order = await api.order();
    if (!order.success || api !== this.api || this.inFlight || this.status !== 'idle') return;
    if (order.status === 'open') orderMark(api.endpoint, false);
    const payment = 'payment' in order ? order.payment : undefined;
    // A payment page left open (Back from it) leaves the choice to the shopper.
    if (order.status === 'open' || payment?.status === 'pending') return;
    this.inFlight = true;
    try {
      const open = failure('');
      const state = payment ?? (await this.checkOrder(api, open));
      if (state === open) {
        this.message = undefined;
        return this.setStatus('idle');
      }
      await this.conclude(api, state);
    } finally {
      this.inFlight = false;
    }
  }

  private onPageShow = (event: PageTransitionEvent): void => {
    if (!event.persisted || !this.api || this.inFlight) return;
    // Back from a payment page: "Taking you to the payment page…" is over.
    if (this.status === 'submitting') this.reset();
    void this.recall(this.api);
  };

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('pageshow', this.onPageShow);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener('pageshow', this.onPageShow);
  }

  /** A closed bank check is not "no payment" until the middleware says so. */
  private onThreeDSChecking = (): void => {
    this.setStatus('checking');
    this.message = { key: 'checking' };
  };

  /** A payment that reached a final state needs no resuming. */
  private release(api: CheckoutApi, state: FinalPaymentState): void {
    if (!state.reference) return;
    // Says nothing about where the payment stands: its entry stays, so a reload can resume it.
    if (state.status === 'failed' && meaningOf(state.code)?.unsettled) return;
    clearRunningPayment(api.endpoint, state.reference);
  }

  /** The drop-in's one live region speaks for each 3-D Secure step; it has been in the tree all along. */
  private onThreeDSStart = async (event: Event): Promise<void> => {
    const { step } = (event as CustomEvent<{ step: 'method' | 'challenge' }>).detail;
    this.message = { key: step === 'method' ? 'authenticating' : 'challengeAnnouncement' };
    if (step === 'method') {
      // The card form is hidden now: focus stays on what the shopper is waiting for.
      await this.updateComplete;
      this.focusMessage();
    }
  };

  private focusMessage(): void {
    const message = this.renderRoot.querySelector<HTMLElement>('[part=message]');
    message?.focus({ preventScroll: true });
    // Focus scrolls only what is wholly off screen in Firefox and WebKit; a message half above it stays cut.
    message?.scrollIntoView({ block: 'nearest' });
  }

  private async authenticate(reference: string, action: ThreeDSAction): Promise<FinalPaymentState> {
    // The 3-D Secure element gets its endpoint from this drop-in only once both are in the document.
    await this.connection.whenConnected();
    if (!(await threeDSReady())) return notLoaded(reference);
    this.setStatus('authenticating');
    this.threeDS = { reference, action };
    // Said before the element runs, so the step is announced (and focused) even before its first event.
    this.message = { key: 'authenticating' };
    await this.updateComplete;
    this.focusMessage();
    try {
      if (action.version === 1) {
        const element = this.renderRoot.querySelector<Pg3dsV1>('pg-3ds-v1');
        if (element) return await element.start(reference, action);
      } else {
        const element = this.renderRoot.querySelector<Pg3dsV2>('pg-3ds-v2');
        if (element) return await element.start(reference, action);
      }
      return failure('not_registered', reference);
    } finally {
      this.threeDS = undefined;
    }
  }

  private async finish(state: FinalPaymentState, form: PaymentSource): Promise<void> {
    const t = createTranslator(this.locale, this.messages);
    const message = shopperMessage(state, t);
    const reference = state.reference;
    this.message = { outcome: state };
    if (state.status === 'approved' || state.status === 'pending') {
      this.setStatus(state.status);
      const detail = { reference: state.reference, message };
      this.dispatchEvent(
        state.status === 'approved' ? createPgApprovedEvent(detail) : createPgPendingEvent(detail),
      );
      // The form is gone: the outcome takes focus, so it is read and the next Tab starts from it.
      await this.updateComplete;
      this.focusMessage();
      return;
    }
    // The card was not refused by its issuer when the shopper's bank could not verify them: that is `failed`.
    const declined = state.status === 'declined' && state.code !== 'authentication_failed';
    this.setStatus(declined ? 'declined' : 'failed');
    if (state.status === 'declined' && declined) {
      const { code, originalErrorCode } = state;
      this.dispatchEvent(
        createPgDeclinedEvent({
          reference,
          code,
          message,
          ...(originalErrorCode ? { originalErrorCode } : {}),
        }),
      );
      await this.updateComplete;
      await form.clearCard();
    } else this.dispatchEvent(createPgFailedEvent({ reference, code: state.code, message }));
    // The new total is on Pay: the form is the way on, not "Try again".
    if (state.code === 'amount_changed') this.setStatus('idle');
    // The reason takes focus, so it is on screen and read first; "Try again" is the next Tab.
    await this.updateComplete;
    this.focusMessage();
  }

  private async redirect(method: RedirectMethod): Promise<void> {
    const api = this.api;
    if (!api || this.inFlight) return;
    this.inFlight = true;
    try {
      this.message = { key: 'redirecting' };
      this.setStatus('submitting');
      orderMark(api.endpoint, true);
      // The hosted page charges another currency than the one shown here, and shows its own total.
      const answer = await api.startRedirect(
        method,
        method === 'hosted' ? undefined : this.shown(),
      );
      await this.connection.whenConnected();
      if (!answer.success) {
        this.showNewTotal(answer);
        await this.conclude(api, failure(answer.code));
        return;
      }
      this.reference = answer.reference;
      const event = createPgRedirectEvent({
        method,
        reference: answer.reference,
        redirectUrl: answer.redirectUrl,
      });
      if (this.dispatchEvent(event)) window.location.assign(answer.redirectUrl);
    } finally {
      this.inFlight = false;
    }
  }

  /** A state-preserving `moveBefore()` keeps the bank's frame inside as it is: nothing to pause. */
  connectedMoveCallback(): void {}

  /**
   * Reads the order again (`GET {endpoint}/config`) and shows it: call it when the cart changed, so the
   * pay button never shows an amount the order no longer has. Resolves once the answer is rendered;
   * an order that cannot be read leaves plain "Pay" rather than the old amount. The payment's amount
   * is the middleware's in any case: this changes what the shopper reads, not what is charged.
   */
  async refresh(): Promise<void> {
    void this.loadConfig();
    // A newer read (another refresh, a changed endpoint) supersedes this one: wait for the newest.
    for (let read; read !== this.configLoad;) await (read = this.configLoad);
    await this.updateComplete;
  }

  /** Back to `idle` with no message, for a fresh attempt (the card form keeps what was typed). */
  reset(): void {
    if (this.inFlight) return;
    this.message = undefined;
    this.setStatus('idle');
  }

  private async retry(): Promise<void> {
    this.reset();
    await this.updateComplete;
    const form =
      this.querySelector('pg-card-form') ?? this.renderRoot.querySelector('pg-card-form');
    form?.focusFirstField();
  }

  private renderMessage() {
    const t = this.context?.t ?? createTranslator(this.locale, this.messages);
    const m = this.message;
    const outcome = m && 'outcome' in m ? m.outcome : undefined;
    const tone = !outcome
      ? 'info'
      : outcome.status === 'approved'
        ? 'success'
        : outcome.status === 'pending'
          ? 'info'
          : 'error';
    const text = !m ? '' : outcome ? shopperMessage(outcome, t) : t((m as { key: MessageKey }).key);
    const reference = outcome?.success ? outcome.reference : undefined;
    const key = m && 'key' in m ? m.key : undefined;
    const busy = key === 'authenticating' || key === 'redirecting' || key === 'checking';
    // During a challenge the bank's page is the title; the sentence is for screen readers only.
    const quiet = key === 'challengeAnnouncement';
    // No whitespace inside the region: an empty message must match :empty and take no space.
    // prettier-ignore
    return html`<div part="message" class="message ${quiet ? 'visually-hidden' : ''}" role="status" tabindex="-1" data-tone=${tone}>${busy ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}${text || nothing}${reference ? html` <span>${t('referenceLabel', { reference })}</span>` : nothing}</div>`;
  }

  private renderThreeDS() {
    const flow = this.threeDS;
    if (!flow) return nothing;
    return html`<div
      part="three-ds"
      @pg-threeds-start=${this.onThreeDSStart}
      @pg-threeds-checking=${this.onThreeDSChecking}
    >
      ${
        flow.action.version === 1
          ? html`<pg-3ds-v1
              exportparts=${threeDSParts}
              appearance=${this.appearance}
              challenge-timeout=${this.challengeTimeout}
              poll-interval=${this.pollInterval}
            ></pg-3ds-v1>`
          : html`<pg-3ds-v2
              exportparts=${threeDSParts}
              appearance=${this.appearance}
              method-timeout=${this.methodTimeout}
              challenge-timeout=${this.challengeTimeout}
              poll-interval=${this.pollInterval}
            ></pg-3ds-v2>`
      }
    </div>`;
  }

  override render() {
    const t = this.context?.t ?? createTranslator(this.locale, this.messages);
    const status = this.status;
    const m = this.message;
    const done =
      status === 'approved' ||
      status === 'pending' ||
      (m && 'outcome' in m && meaningOf((m.outcome as { code?: string }).code ?? '')?.closesOrder);
    const ended = status === 'declined' || status === 'failed';
    // Busy or ended: the way on is the message (and "Try again"), never Pay beside it.
    const away = ended || status === 'authenticating' || status === 'checking';
    const offered = this.offered;
    const others = redirectMethods.filter((m) => offered.includes(m));
    // Locale and messages go to the card form directly too: context does not reach it on the server.
    return html`<div part="base" class="base" lang=${this.locale}>
      ${this.renderMessage()}
      ${
        !done && offered.includes('card')
          ? html`<div part="card" ?hidden=${away}>
              <slot
                ><pg-card-form
                  locale=${this.locale}
                  .messages=${this.messages}
                  appearance=${this.appearance}
                  exportparts=${cardFormParts}
                ></pg-card-form
              ></slot>
            </div>`
          : nothing
      }
      ${
        ended && !done
          ? html`<button part="retry" class="secondary" type="button" @click=${this.retry}>
              ${t(status === 'declined' ? 'tryAnotherCard' : 'tryAgain')}
            </button>`
          : nothing
      }
      ${this.renderThreeDS()}
      ${
        !done && others.length > 0 && !away
          ? html`<div part="methods" class="methods" role="group" aria-label=${t('methodsLabel')}>
              ${others.map(
                (m) =>
                  html`<button
                    part="method"
                    class="secondary"
                    type="button"
                    data-method=${m}
                    @click=${() => this.redirect(m)}
                  >
                    ${t(methodLabel[m])}
                  </button>`,
              )}
            </div>`
          : nothing
      }
    </div>`;
  }
}

/** A failure this drop-in words itself (the middleware's own text is never shown). */
const failure = (code: string, reference?: string): FinalPaymentState => ({
  success: false,
  status: 'failed',
  ...(reference === undefined ? {} : { reference }),
  code,
  message: '',
});

/** 3-D Secure could not be loaded (the script tag's pg-checkout.3ds.js); the payment is not given up. */
const notLoaded = (reference?: string): FinalPaymentState => failure('not_loaded', reference);

const noForm: PaymentSource = { clearCard: () => Promise.resolve() };
