import { ContextProvider } from '@lit/context';
import {
  html,
  isServer,
  LitElement,
  nothing,
  type PropertyValues,
  type PropertyDeclarations,
} from 'lit';
import { REDIRECT_METHODS } from '@pg-checkout/protocol/vocabulary';
import type { PaymentMethod } from '../api/types.js';
import { checkoutContext } from '../shared/context.js';
import { LocalizeController } from '../shared/localize-controller.js';
import { PaymentFlowController, type RedirectMethod } from './payment-flow.js';
import type { CheckoutStatus } from '../shared/events/status.js';
import type { MessageKey, Messages } from '../i18n/localize.js';
import { lookControllers } from '../shared/look.js';
import { themeStyles } from '../shared/theme.js';
import { checkoutStyles } from './checkout.styles.js';

const methodLabel: Record<RedirectMethod, MessageKey> = {
  hosted: 'methodHosted',
  eft: 'methodEft',
  redirect: 'methodRedirect',
};

/** The inner elements' parts, forwarded so `pg-checkout::part(submit)` themes the built-in form. */
const cardFormParts =
  'form,field,label,input,brand,brands,error,saved-cards,save-card,submit,status:form-status';

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
    formToken: { attribute: 'form-token' },
  };

  /** Every string it shows, in `locale` with `messages` on top; the parts inside speak through it. */
  private readonly localize = new LocalizeController(this);

  private readonly provider = new ContextProvider(this, { context: checkoutContext });

  /** The payment: the order, Pay, 3-D Secure, the outcome, and the truth after a reload or a lost answer. */
  private readonly flow = new PaymentFlowController(this, {
    localize: this.localize,
    focusMessage: () => this.focusMessage(),
  });

  /** Its look: the server's styles once it hydrates; `appearance="auto"` follows the page's own colours. */
  private readonly look = lookControllers(this);

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

  /**
   * The middleware's form token for this page (`checkout.formToken(req, res)`), given when the page is
   * rendered on the server: the card form is then a real form that posts to `{endpoint}/form/pay`, so a
   * card payment works before (or without) the script. Once the script runs, it takes the form over.
   */
  formToken = '';

  private get offered(): PaymentMethod[] {
    const chosen = this.methods
      .split(/[\s,]+/)
      .filter(
        (m): m is PaymentMethod =>
          m === 'card' || (REDIRECT_METHODS as readonly string[]).includes(m),
      );
    if (chosen.length > 0) return chosen;
    return this.flow.config?.methods.length ? this.flow.config.methods : ['card'];
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const flow = this.flow;
    if (changed.has('endpoint')) flow.useEndpoint(this.endpoint, isServer);
    else if (changed.has('savedCards')) void flow.loadConfig();
    const allowSave = this.savedCards && flow.config?.savedCards === true;
    // What the parts inside (a merchant's own card form too) read through @lit/context.
    this.provider.setValue({
      api: flow.api,
      locale: this.locale,
      messages: this.messages,
      t: this.localize.t,
      savedCards: allowSave ? flow.storedCards : [],
      allowSave,
      payLabel: this.payLabel(),
      pay: flow.pay,
    });
  }

  /**
   * The pay button's "Pay R 100,00". The usual pairs (rands in `en` or `af`) are written without Intl, in
   * the same render as the order; others say plain "Pay" until the amount's number format exists.
   */
  private payLabel(): string | undefined {
    const config = this.flow.config;
    const amount = config && this.localize.amount(config.amount, config.currency);
    return amount === undefined ? undefined : this.localize.t('payAmount', { amount });
  }

  /** Once what was just set is rendered, the message takes focus (so it is read, and on screen). */
  private async focusMessage(): Promise<void> {
    await this.updateComplete;
    const message = this.renderRoot.querySelector<HTMLElement>('[part=message]');
    message?.focus({ preventScroll: true });
    // Focus scrolls only what is wholly off screen in Firefox and WebKit; a message half above it stays cut.
    message?.scrollIntoView({ block: 'nearest' });
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
    await this.flow.refresh();
    await this.updateComplete;
  }

  /** Back to `idle` with no message, for a fresh attempt (the card form keeps what was typed). */
  reset(): void {
    this.flow.reset();
  }

  private async retry(): Promise<void> {
    this.reset();
    await this.updateComplete;
    const form =
      this.querySelector('pg-card-form') ?? this.renderRoot.querySelector('pg-card-form');
    form?.focusFirstField();
  }

  private renderMessage() {
    const { localize } = this;
    const m = this.flow.message;
    const outcome = m && 'outcome' in m ? m.outcome : undefined;
    const tone = !outcome
      ? 'info'
      : outcome.status === 'approved'
        ? 'success'
        : outcome.status === 'pending'
          ? 'info'
          : 'error';
    const text = !m
      ? ''
      : outcome
        ? localize.outcome(outcome)
        : localize.t((m as { key: MessageKey }).key);
    const reference = outcome?.success ? outcome.reference : undefined;
    const key = m && 'key' in m ? m.key : undefined;
    const busy = key === 'authenticating' || key === 'redirecting' || key === 'checking';
    // During a challenge the bank's page is the title; the sentence is for screen readers only.
    const quiet = key === 'challengeAnnouncement';
    // No whitespace inside the region: an empty message must match :empty and take no space. The
    // sentence and its reference are one box, so it wraps beside the spinner, not under it.
    // prettier-ignore
    return html`<div part="message" class="message ${quiet ? 'visually-hidden' : ''}" role="status" tabindex="-1" data-tone=${tone}>${busy ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}${text || reference ? html`<span>${text || nothing}${reference ? html` <span>${localize.t('referenceLabel', { reference })}</span>` : nothing}</span>` : nothing}</div>`;
  }

  override render() {
    const { localize } = this;
    const status = this.status;
    const done = this.flow.orderClosed;
    const ended = status === 'declined' || status === 'failed';
    // Busy or ended: the way on is the message (and "Try again"), never Pay beside it.
    const away = ended || status === 'authenticating' || status === 'checking';
    const offered = this.offered;
    const others = REDIRECT_METHODS.filter((m) => offered.includes(m));
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
                  .post=${this.formToken ? { action: `${this.endpoint}/form/pay`, token: this.formToken } : undefined}
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
              ${localize.t(status === 'declined' ? 'tryAnotherCard' : 'tryAgain')}
            </button>`
          : nothing
      }
      ${this.flow.renderThreeDS()}
      ${
        !done && others.length > 0 && !away
          ? html`<div
              part="methods"
              class="methods"
              role="group"
              aria-label=${localize.t('methodsLabel')}
            >
              ${others.map(
                (m) =>
                  html`<button
                    part="method"
                    class="secondary"
                    type="button"
                    data-method=${m}
                    @click=${() => this.flow.redirect(m)}
                  >
                    ${localize.t(methodLabel[m])}
                  </button>`,
              )}
            </div>`
          : nothing
      }
    </div>`;
  }
}
