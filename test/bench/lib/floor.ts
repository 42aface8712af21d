/** The floor every size and speed figure is set beside: the smallest Lit element there is. */
export const FLOOR_SOURCE = `import { LitElement, html } from 'lit';
class FloorElement extends LitElement {
  static properties = { name: {} };
  constructor() { super(); this.name = 'floor'; }
  render() { return html\`<p>\${this.name}</p>\`; }
}
customElements.define('floor-element', FloorElement);
`;

// The floors below share their markup, so each differs from the one before only by what its comment says.
const IMPORTS = `import { LitElement, html, css } from 'lit';
import { themeStyles } from './src/shared/theme.ts';
import { cardFormStyles } from './src/card-form/card-form.styles.ts';
import { checkoutStyles } from './src/checkout/checkout.styles.ts';
import { brandMarks } from './src/card-form/card/brand-marks.ts';
const field = (id, label, autocomplete, inputmode, extra = '', hint = '') => html\`<div class="field">
  <div class="label-row"><label for=\${id}>\${label}</label>\${extra}</div>
  <div class="control"><input id=\${id} type="text" autocomplete=\${autocomplete} inputmode=\${inputmode} required></div>
  \${hint ? html\`<div class="hint">\${hint}</div>\` : ''}<div class="error"></div></div>\`;
const brands = () => html\`<span class="brands" role="img" aria-label="We accept Visa, Mastercard, American Express and Diners Club">\${['visa', 'mastercard', 'amex', 'diners'].map((b) => html\`<span class="mark"><svg viewBox="0 0 32 20" width="32" height="20" aria-hidden="true">\${brandMarks[b]}</svg></span>\`)}</span>\`;
const form = (pay) => html\`<form novalidate>
  \${field('number', 'Card number', 'cc-number', 'numeric', brands())}
  \${field('holder', 'Name on card', 'cc-name', 'text')}
  <div class="row">\${field('expiry', 'Expiry date', 'cc-exp', 'numeric')}\${field('cvv', 'Security code', 'cc-csc', 'numeric', '', '3 digits on the back of the card')}</div>
  <button type="submit">\${pay}</button><div class="visually-hidden" role="status"></div>
</form>\`;
`;

// What the drop-in must do at load, whatever its code (see REQUIRED_WORK_FLOOR_SOURCE), as a connectedCallback.
const REQUIRED_WORK = `connectedCallback() {
    super.connectedCallback();
    const endpoint = new URL('/checkout', location.href).href;
    const resume = sessionStorage.getItem('pg-checkout:payment:' + endpoint) || localStorage.getItem('pg-checkout:order:' + endpoint);
    if (resume) this.setAttribute('data-resume', '');
    fetch(endpoint + '/config', { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then((response) => response.json())
      .then((order) => { this.payLabel = 'Pay R\\u00a0' + (order.amount / 100).toFixed(2).replace('.', ','); });
  }`;

/**
 * The floor the drop-in's interactive time is set beside: a Lit element that renders what the drop-in's
 * first screen shows (its message region, the four labelled card fields with their hint and accepted
 * brands, "Pay R 100,00") with the drop-in's own styles and brand marks, and no logic at all: no
 * validation, formatting, context, translation table or order read.
 */
export const SAME_CONTENT_FLOOR_SOURCE = `${IMPORTS}
class SameContentFloor extends LitElement {
  static styles = [themeStyles, cardFormStyles, checkoutStyles, css\`form { margin: 0; }\`];
  render() {
    return html\`<div class="base"><div class="message" role="status" tabindex="-1"></div><div>\${form('Pay R\\u00a0100,00')}</div></div>\`;
  }
}
customElements.define('same-content-floor', SameContentFloor);
`;

/**
 * The floor of what the drop-in must do at load, whatever its code: the same-content floor, plus the two
 * things the issues require before a shopper types (nothing else, no logic around them):
 * - the order read from the middleware (`GET /checkout/config`, JSON, as the drop-in asks for it) and its
 *   amount rendered on Pay, which says plain "Pay" until it arrives;
 * - the two storage reads that decide whether a payment resumes after a reload or in another tab
 *   (`sessionStorage` for this tab's running payment, `localStorage` for "this browser asked to pay").
 * If this element alone is over a goal, no drop-in that keeps those two can meet it.
 */
export const REQUIRED_WORK_FLOOR_SOURCE = `${IMPORTS}
class RequiredWorkFloor extends LitElement {
  static styles = [themeStyles, cardFormStyles, checkoutStyles, css\`form { margin: 0; }\`];
  static properties = { payLabel: { state: true } };
  ${REQUIRED_WORK}
  render() {
    return html\`<div class="base"><div class="message" role="status" tabindex="-1"></div><div>\${form(this.payLabel ?? 'Pay')}</div></div>\`;
  }
}
customElements.define('required-work-floor', RequiredWorkFloor);
`;

/**
 * The required-work floor in the drop-in's shape: an outer element (the message region, the slot, the
 * drop-in's styles) that does the required work and hands the pay label to the form inside through
 * @lit/context, and an inner element with the form and the card form's styles, as `<pg-checkout>` and
 * `<pg-card-form>` are. Still no logic: what it costs over the required-work floor is the shape's.
 */
export const TWO_ELEMENT_FLOOR_SOURCE = `${IMPORTS}
import { ContextConsumer, ContextProvider, createContext } from '@lit/context';
const order = createContext('order');
class TwoElementFloor extends LitElement {
  static styles = [themeStyles, checkoutStyles];
  static properties = { payLabel: { state: true } };
  provider = new ContextProvider(this, { context: order });
  ${REQUIRED_WORK}
  willUpdate() { this.provider.setValue({ payLabel: this.payLabel }); }
  render() {
    return html\`<div class="base"><div class="message" role="status" tabindex="-1"></div><div part="card"><slot><two-element-form></two-element-form></slot></div></div>\`;
  }
}
class TwoElementForm extends LitElement {
  static styles = [themeStyles, cardFormStyles, css\`form { margin: 0; }\`];
  order = new ContextConsumer(this, { context: order, subscribe: true });
  render() { return form(this.order.value?.payLabel ?? 'Pay'); }
}
customElements.define('two-element-form', TwoElementForm);
customElements.define('two-element-floor', TwoElementFloor);
`;
