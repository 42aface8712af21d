import { ContextConsumer } from '@lit/context';
import { html, isServer, LitElement, nothing, type PropertyDeclarations } from 'lit';
import { live } from '../shared/live.js';
import type { CardType, PaymentRequest, SavedCard } from '../api/types.js';
import { acceptedBrands, brandMarks } from './card/brand-marks.js';
import { brandOf, detectBrand } from './card/brands.js';
import { formatExpiry, parseExpiry, regroupExpiry } from './card/expiry.js';
import {
  digitsOnly,
  formatCardNumber,
  formatCvv,
  stepOverSeparator,
  type Formatted,
} from './card/format.js';
import { checkoutContext, type CheckoutContext } from '../shared/context.js';
import { createPgSubmitEvent } from '../shared/events/submit.js';
import { LocalizeController } from '../shared/localize-controller.js';
import type { Messages, Translate } from '../i18n/localize.js';
import { lookControllers } from '../shared/look.js';
import { themeStyles } from '../shared/theme.js';
import {
  CardHolderValidator,
  CardNumberValidator,
  CvvValidator,
  ExpiryValidator,
  messageOf,
  type ValidationFailure,
} from './validators/index.js';
import { cardFormStyles } from './card-form.styles.js';

type Field = 'number' | 'holder' | 'expiry' | 'cvv';
const fieldOrder: Field[] = ['number', 'holder', 'expiry', 'cvv'];
const NEW_CARD = '';
/** Values found in server-rendered inputs, by field. */
type TypedFields = Partial<Record<Field, string>> & { saveCard?: boolean };
/** Pressing Pay keeps focus in the field: its blur message would push Pay away before the release (a missed tap). */
const preventDefault = (event: Event) => event.preventDefault();

const markOf = (type: CardType) =>
  html`<svg viewBox="0 0 32 20" width="32" height="20" aria-hidden="true" focusable="false">
    ${brandMarks[type]}
  </svg>`;

/**
 * @tag pg-card-form
 * @summary A card form: number, name, expiry and security code, validated and formatted as the shopper types.
 *
 * Inputs live in this document (no iframes) with `autocomplete` cc-number, cc-name, cc-exp and cc-csc, so
 * browser autofill works. Inside `<pg-checkout>` it pays through the drop-in; alone, listen for `pg-submit`
 * and call `getPaymentRequest()`.
 *
 * @event pg-submit - A valid form was submitted (detail: cardType, savedCard, saveCard; never card data). Cancelable.
 *
 * @csspart form - The form element.
 * @csspart field - Each label, input and message group.
 * @csspart label - Each field label.
 * @csspart input - Each text input.
 * @csspart brand - The detected card brand's mark, inside the number field.
 * @csspart brands - The accepted brands' marks, beside the number label.
 * @csspart error - Each field's message region.
 * @csspart saved-cards - The saved card choice.
 * @csspart save-card - The "save this card" option.
 * @csspart submit - The pay button.
 * @csspart status - The form's live status region.
 *
 * @cssproperty --pg-color-background - Field background.
 * @cssproperty --pg-color-surface - Badge background.
 * @cssproperty --pg-color-text - Text colour.
 * @cssproperty --pg-color-text-muted - Hint colour.
 * @cssproperty --pg-color-border - Field border colour.
 * @cssproperty --pg-color-primary - Button colour.
 * @cssproperty --pg-color-on-primary - Button text colour.
 * @cssproperty --pg-color-error - Error colour.
 * @cssproperty --pg-focus-ring - Focus ring box-shadow.
 * @cssproperty --pg-radius - Corner radius.
 * @cssproperty --pg-spacing - Gap between fields.
 * @cssproperty --pg-font-family - Font family.
 * @cssproperty --pg-font-size - Base font size.
 */
export class PgCardForm extends LitElement {
  static override styles = [themeStyles, cardFormStyles];
  static override properties: PropertyDeclarations = {
    // The private fields that render: `attribute: false` is all that lit's `state: true` would add at run
    // time, and what the Custom Elements Manifest reads to list no attribute for them.
    checkout: { attribute: false },
    number: { attribute: false },
    holder: { attribute: false },
    expiry: { attribute: false },
    cvv: { attribute: false },
    saveCard: { attribute: false },
    selectedToken: { attribute: false },
    touched: { attribute: false },
    announcement: { attribute: false },
    locale: { reflect: true },
    messages: { attribute: false },
    savedCards: { attribute: false },
    allowSave: { type: Boolean, attribute: 'allow-save' },
    busy: { type: Boolean, reflect: true },
    submitLabel: { attribute: 'submit-label' },
    appearance: { reflect: true },
    post: { attribute: false },
  };

  /** Its words: the drop-in's inside `<pg-checkout>`, else its own `locale` with its `messages` on top. */
  private readonly localize = new LocalizeController(this, { inherit: () => this.checkout?.t });

  /** Its look: the server's styles once it hydrates; `appearance="auto"` follows the page's own colours. */
  private readonly look = lookControllers(this);

  private readonly consumer = new ContextConsumer(this, {
    context: checkoutContext,
    subscribe: true,
    callback: (value) => (this.checkout = value),
  });

  private checkout?: CheckoutContext | undefined;

  /** Set by `<pg-checkout form-token>`: where the form posts with no script, and its token. */
  post?: { action: string; token: string } | undefined;

  private get form(): HTMLFormElement {
    return this.renderRoot.querySelector('form')!;
  }

  private number = '';
  private holder = '';
  private expiry = '';
  private cvv = '';
  private saveCard = false;
  private selectedToken = NEW_CARD;
  /** Fields whose errors show: edited and left, or all of them after a submit. */
  private touched = new Set<Field>();
  /** Fields the shopper changed; passing through an untouched field shows no error. */
  private dirty = new Set<Field>();
  private announcement = '';

  /** Locale of the messages (`en`, `af`); the drop-in's when inside one. */
  locale = 'en';

  /** Per-string overrides of the translation table. */
  messages: Partial<Messages> = {};

  /** Saved cards (masked) the shopper may pay with; the drop-in's when inside one. */
  savedCards: SavedCard[] = [];

  /** Offer "save this card". */
  allowSave = false;

  /** A payment is in flight: the button shows progress and ignores clicks (it keeps focus). Set back to false when the attempt is over. */
  busy = false;

  /** Pay button text; defaults to the localized "Pay". */
  submitLabel = '';

  /** Light or dark defaults (`light`, `dark`, `auto`). */
  appearance: 'light' | 'dark' | 'auto' = 'light';

  private readonly validators = {
    number: new CardNumberValidator(),
    holder: new CardHolderValidator(),
    expiry: new ExpiryValidator(),
    cvv: new CvvValidator(() => this.cvvLength),
  };

  private get t(): Translate {
    return this.localize.t;
  }

  private get cards(): SavedCard[] {
    return this.checkout?.savedCards.length ? this.checkout.savedCards : this.savedCards;
  }

  private get cardType(): CardType | undefined {
    return brandOf(digitsOnly(this.number));
  }

  private get cvvLength(): number {
    const detection = detectBrand(digitsOnly(this.number));
    return detection.kind === 'brand' ? detection.rules.cvvLength : 3;
  }

  private get usingSavedCard(): boolean {
    return (
      this.selectedToken !== NEW_CARD && this.cards.some((c) => c.token === this.selectedToken)
    );
  }

  private failure(field: Field): ValidationFailure | undefined {
    const value = { number: this.number, holder: this.holder, expiry: this.expiry, cvv: this.cvv }[
      field
    ];
    return this.validators[field].execute(value);
  }

  private invalidFields(): Field[] {
    return this.usingSavedCard ? [] : fieldOrder.filter((f) => this.failure(f));
  }

  /** What the shopper typed into the server-rendered fields before this element hydrated. */
  private typedBeforeHydration?: TypedFields | undefined;

  protected override willUpdate(): void {
    // Hydration sets each input to its (empty) state: read what the page holds first, give it back after.
    if (!this.hasUpdated && !isServer) this.typedBeforeHydration = this.readServerFields();
    // A saved card no longer offered (the cards or the drop-in's context changed) is not used. Checked
    // on every update, not by property name: the script tag's build shortens private names.
    if (this.selectedToken !== NEW_CARD && !this.usingSavedCard) this.selectedToken = NEW_CARD;
  }

  private readServerFields(): TypedFields {
    const root = this.renderRoot;
    const typed: TypedFields = {};
    for (const field of fieldOrder) {
      const value = root.querySelector<HTMLInputElement>(`input#${field}`)?.value;
      if (value) typed[field] = value;
    }
    if (root.querySelector<HTMLInputElement>('input[name=saveCard]')?.checked)
      typed.saveCard = true;
    return typed;
  }

  protected override firstUpdated(): void {
    // The server renders the pay button disabled: before hydration a submit would be the browser's own,
    // a GET of the page with the card in its URL. Hydration leaves attributes as they are.
    this.renderRoot.querySelector('button[type=submit]')?.removeAttribute('disabled');
    const typed = this.typedBeforeHydration ?? {};
    this.typedBeforeHydration = undefined;
    if (typed.number) this.number = formatCardNumber(typed.number).display;
    if (typed.holder) this.holder = typed.holder;
    if (typed.expiry) this.expiry = formatExpiry(typed.expiry).display;
    if (typed.cvv) this.cvv = formatCvv(typed.cvv, this.cvvLength).display;
    if (typed.saveCard) this.saveCard = true;
    for (const field of fieldOrder) if (typed[field]) this.dirty.add(field);
  }

  private applyFormatted(input: HTMLInputElement, result: Formatted): string {
    input.value = result.display;
    if (
      input.getRootNode() instanceof ShadowRoot &&
      (input.getRootNode() as ShadowRoot).activeElement === input
    ) {
      input.setSelectionRange(result.caret, result.caret);
    }
    return result.display;
  }

  private onNumberInput(event: InputEvent): void {
    const input = event.target as HTMLInputElement;
    const caret = input.selectionStart ?? input.value.length;
    this.dirty.add('number');
    // Backspace or Delete over a group space would change nothing: delete the digit beside it instead.
    const { raw, caret: position } = event.inputType?.startsWith('delete')
      ? stepOverSeparator(input.value, caret, digitsOnly(this.number), event.inputType)
      : { raw: input.value, caret };
    this.number = this.applyFormatted(input, formatCardNumber(raw, position));
    const cvv = formatCvv(this.cvv, this.cvvLength);
    if (cvv.display !== this.cvv && this.cvvLength === 3) this.cvv = cvv.display;
  }

  private onExpiryInput(event: InputEvent): void {
    const input = event.target as HTMLInputElement;
    this.dirty.add('expiry');
    if (event.inputType?.startsWith('delete')) {
      // Deleting steps over " / " and regroups what is left, without the typing rules (no leading zero).
      const caret = input.selectionStart ?? input.value.length;
      const step = stepOverSeparator(input.value, caret, digitsOnly(this.expiry), event.inputType);
      this.expiry = this.applyFormatted(input, regroupExpiry(step.raw, step.caret));
      return;
    }
    this.expiry = this.applyFormatted(
      input,
      formatExpiry(input.value, input.selectionStart ?? input.value.length),
    );
  }

  private onCvvInput(event: InputEvent): void {
    const input = event.target as HTMLInputElement;
    this.dirty.add('cvv');
    this.cvv = this.applyFormatted(input, formatCvv(input.value, 4));
  }

  private onHolderInput(event: InputEvent): void {
    this.dirty.add('holder');
    this.holder = (event.target as HTMLInputElement).value;
  }

  private onBlur(field: Field): void {
    if (field === 'expiry' && this.expiry !== '') {
      const parsed = parseExpiry(this.expiry);
      // One shape once the shopper moves on, the one the placeholder shows: MM / YY.
      if (parsed) {
        const month = String(parsed.month).padStart(2, '0');
        this.expiry = formatExpiry(`${month}${String(parsed.year).slice(-2)}`).display;
      }
    }
    if (!this.dirty.has(field)) return;
    if (!this.touched.has(field)) this.touched = new Set([...this.touched, field]);
    // The field's own message is not a live region (a submit would change four at once): say it here.
    const failure = this.failure(field);
    if (failure) this.announcement = messageOf(failure, this.t);
  }

  private onSelectCard(event: Event): void {
    this.selectedToken = (event.target as HTMLInputElement).value;
  }

  private async onSubmit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.busy) return;
    const invalid = this.invalidFields();
    if (invalid.length > 0) {
      this.touched = new Set(fieldOrder);
      this.announcement = this.t('formInvalid');
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>(`#${invalid[0]}`)?.focus();
      return;
    }
    const request = this.getPaymentRequest();
    if (!request) return;
    this.announcement = this.t('processing');
    this.busy = true;
    const detail = {
      cardType: this.usingSavedCard ? undefined : this.cardType,
      savedCard: this.usingSavedCard,
      saveCard: request.saveCard === true,
    };
    if (!this.dispatchEvent(createPgSubmitEvent(detail))) {
      this.busy = false;
      this.announcement = '';
      return;
    }
    const pay = this.checkout?.pay;
    if (pay) {
      try {
        await pay(request, this);
      } finally {
        this.busy = false;
        this.announcement = '';
      }
    }
  }

  /**
   * The body for `POST {endpoint}/payments`: the gateway's card JSON (or a saved card's token) plus the
   * screen size. Undefined while the form is not valid.
   */
  getPaymentRequest(): PaymentRequest | undefined {
    const screenSize = { screenWidth: window.screen.width, screenHeight: window.screen.height };
    if (this.usingSavedCard) return { card: { token: this.selectedToken }, ...screenSize };
    if (this.invalidFields().length > 0) return undefined;
    const expiry = parseExpiry(this.expiry);
    const type = this.cardType;
    if (!expiry || !type) return undefined;
    const request: PaymentRequest = {
      card: {
        number: digitsOnly(this.number),
        cardHolder: this.holder.trim().replace(/\s+/g, ' '),
        expiryMonth: expiry.month,
        expiryYear: expiry.year,
        cvv: this.cvv,
        type,
      },
      ...screenSize,
    };
    if (this.allowSaveCard && this.saveCard) request.saveCard = true;
    return request;
  }

  /** True when the form would submit (a saved card is chosen, or every field is valid). */
  checkValidity(): boolean {
    return this.invalidFields().length === 0;
  }

  /** Empties the card fields (after a decline) and puts focus on the number, keeping the name. */
  async clearCard(): Promise<void> {
    this.number = '';
    this.expiry = '';
    this.cvv = '';
    this.selectedToken = NEW_CARD;
    this.touched = new Set();
    this.dirty.clear();
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>('#number')?.focus();
  }

  /** Puts focus on the first field (the saved card choice or the card number), never the form token. */
  focusFirstField(): void {
    this.renderRoot.querySelector<HTMLInputElement>('input:not([type=hidden])')?.focus();
  }

  /** Announces a message in the form's live region (the drop-in uses it for results). */
  announce(message: string): void {
    this.announcement = message;
  }

  /** Submits the form as if the shopper pressed the button. */
  submit(): void {
    this.form.requestSubmit();
  }

  private get allowSaveCard(): boolean {
    return this.checkout ? this.checkout.allowSave : this.allowSave;
  }

  private renderField(
    field: Field,
    label: string,
    attributes: {
      autocomplete: string;
      inputmode: 'numeric' | 'text';
      placeholder?: string | undefined;
      hint?: string | undefined;
    },
    value: string,
    onInput: (event: InputEvent) => void,
    extra: unknown = nothing,
  ) {
    const failure = this.touched.has(field) ? this.failure(field) : undefined;
    const describedBy = [
      attributes.hint ? `${field}-hint` : '',
      `${field}-error`,
      field === 'number' && this.cardType ? 'number-brand' : '',
    ]
      .filter(Boolean)
      .join(' ');
    return html`<div class="field" part="field">
      <div class="label-row">
        <label part="label" for=${field}>${label}</label
        >${field === 'number' ? this.renderAccepted() : nothing}
      </div>
      <div class="control">
        <input
          part="input"
          id=${field}
          name=${field}
          type="text"
          autocomplete=${attributes.autocomplete}
          inputmode=${attributes.inputmode}
          placeholder=${attributes.placeholder ?? nothing}
          spellcheck="false"
          autocorrect="off"
          autocapitalize=${field === 'holder' ? 'words' : 'off'}
          required
          aria-invalid=${failure ? 'true' : 'false'}
          aria-describedby=${describedBy}
          .value=${live(value)}
          @input=${onInput}
          @blur=${() => this.onBlur(field)}
        />
        ${extra}
      </div>
      ${attributes.hint ? html`<div class="hint" id="${field}-hint">${attributes.hint}</div>` : nothing}
      <!-- prettier-ignore -->
      <div class="error" part="error" id="${field}-error">${failure ? messageOf(failure, this.t) : nothing}</div>
    </div>`;
  }

  /** The accepted brands, shown before anything is typed; the detected one stays lit after. */
  private renderAccepted() {
    const type = this.cardType;
    return html`<span class="brands" part="brands" role="img" aria-label=${this.t('acceptedBrands')}
      >${acceptedBrands.map(
        (b) =>
          html`<span class="mark" ?data-dim=${type !== undefined && type !== b}
            >${markOf(b)}</span
          >`,
      )}</span
    >`;
  }

  private renderSavedCards() {
    const t = this.t;
    return html`<fieldset part="saved-cards">
      <legend>${t('savedCards')}</legend>
      ${this.cards.map(
        (card) =>
          html`<label class="choice">
            <input
              type="radio"
              name="saved"
              .value=${card.token}
              .checked=${live(this.selectedToken === card.token)}
              @change=${this.onSelectCard}
            />
            ${t('savedCard', {
              brand: t(card.type),
              last4: card.number.slice(-4),
              month: String(card.expiryMonth).padStart(2, '0'),
              year: String(card.expiryYear).slice(-2),
            })}
          </label>`,
      )}
      <label class="choice">
        <input
          type="radio"
          name="saved"
          .value=${NEW_CARD}
          .checked=${live(this.selectedToken === NEW_CARD)}
          @change=${this.onSelectCard}
        />
        ${t('newCard')}
      </label>
    </fieldset>`;
  }

  private renderCardFields() {
    const t = this.t;
    const type = this.cardType;
    const brand = type
      ? html`<span class="brand" part="brand" id="number-brand" role="img" aria-label=${t(type)}
          >${markOf(type)}</span
        >`
      : nothing;
    return html`
      ${this.renderField('number', t('cardNumber'), { autocomplete: 'cc-number', inputmode: 'numeric' }, this.number, this.onNumberInput, brand)}
      ${this.renderField('holder', t('cardHolder'), { autocomplete: 'cc-name', inputmode: 'text' }, this.holder, this.onHolderInput)}
      <div class="row">
        ${this.renderField(
          'expiry',
          t('expiry'),
          { autocomplete: 'cc-exp', inputmode: 'numeric', placeholder: t('expiryPlaceholder') },
          this.expiry,
          this.onExpiryInput,
        )}
        ${this.renderField(
          'cvv',
          t('cvv'),
          {
            autocomplete: 'cc-csc',
            inputmode: 'numeric',
            hint: this.cvvLength === 4 ? t('cvvHintAmex') : t('cvvHint'),
          },
          this.cvv,
          this.onCvvInput,
        )}
      </div>
      ${
        this.allowSaveCard
          ? html`<label class="choice" part="save-card"
              ><input
                type="checkbox"
                name="saveCard"
                .checked=${live(this.saveCard)}
                @change=${(e: Event) => (this.saveCard = (e.target as HTMLInputElement).checked)}
              />
              ${t('saveCard')}</label
            >`
          : nothing
      }
    `;
  }

  override render() {
    const t = this.t;
    const label = this.submitLabel || this.checkout?.payLabel || t('pay');
    // Given a form token, a real form: with no script, the browser posts it to the middleware.
    const post = this.post;
    return html`<form
      part="form"
      novalidate
      method=${post ? 'post' : nothing}
      action=${post ? post.action : nothing}
      lang=${this.checkout?.locale ?? this.locale}
      @submit=${this.onSubmit}
    >
      ${post ? html`<input type="hidden" name="pg_form" value=${post.token} />` : nothing}
      ${this.cards.length > 0 ? this.renderSavedCards() : nothing}
      ${this.usingSavedCard ? nothing : this.renderCardFields()}
      <button
        part="submit"
        type="submit"
        ?disabled=${isServer && !post}
        @mousedown=${preventDefault}
        aria-disabled=${this.busy ? 'true' : 'false'}
        aria-busy=${this.busy ? 'true' : 'false'}
      >
        ${
          this.busy
            ? html`<span class="spinner" aria-hidden="true"></span>${t('payProcessing')}`
            : label
        }
      </button>
      <div class="visually-hidden" part="status" role="status" aria-live="polite">
        ${this.announcement}
      </div>
    </form>`;
  }
}
