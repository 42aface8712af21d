import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { field } from '../test-helpers/input.js';
import './card-form.js';
import type { PgCardForm } from './card-form.component.js';

const year = String(new Date().getFullYear() + 2).slice(2);
const root = (form: PgCardForm) => form.shadowRoot!;
const errorText = (form: PgCardForm, id: string) =>
  root(form).querySelector(`#${id}-error`)!.textContent!.trim();
const status = (form: PgCardForm) => root(form).querySelector('[part=status]')!.textContent!.trim();

/** What a screen reader reads as the input's description: the texts its aria-describedby names. */
function description(form: PgCardForm, id: string): string {
  const ids = (field(form, id).getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  return ids
    .map((ref) => {
      const el = root(form).getElementById(ref);
      return (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim();
    })
    .filter(Boolean)
    .join(' ');
}

async function typeByKeyboard(form: PgCardForm, id: string, text: string) {
  field(form, id).focus();
  await sendKeys({ type: text });
  await form.updateComplete;
}

/** WCAG relative luminance contrast of two `rgb(...)` colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('<pg-card-form> by keyboard and screen reader', () => {
  it('tabbing through an empty form marks nothing; an edited field left invalid shows and says its error', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    field(form, 'number').focus();
    for (let i = 0; i < 4; i += 1) await sendKeys({ press: 'Tab' });
    await form.updateComplete;
    for (const id of ['number', 'holder', 'expiry', 'cvv']) {
      expect(field(form, id).getAttribute('aria-invalid'), id).to.equal('false');
      expect(errorText(form, id), id).to.equal('');
    }
    expect(status(form)).to.equal('');
    // No message, no space kept for one under each field.
    for (const id of ['number', 'holder', 'expiry', 'cvv'])
      expect(getComputedStyle(root(form).querySelector(`#${id}-error`)!).display, id).to.equal(
        'none',
      );
    await typeByKeyboard(form, 'number', '4111');
    await sendKeys({ press: 'Tab' });
    await form.updateComplete;
    expect(errorText(form, 'number')).to.equal('The card number is too short.');
    expect(field(form, 'number').getAttribute('aria-invalid')).to.equal('true');
    expect(status(form)).to.equal('The card number is too short.');
  });

  it('a failed submit changes one live region, a summary, and focuses the first invalid field', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    const live = root(form).querySelectorAll('[aria-live], [role=status], [role=alert]');
    expect(live.length).to.equal(1);
    root(form).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await form.updateComplete;
    await new Promise((r) => setTimeout(r, 0));
    expect(status(form)).to.equal('Some details need your attention.');
    expect(errorText(form, 'number')).to.equal('Enter your card number.');
    for (const id of ['number', 'holder', 'expiry', 'cvv'])
      expect(root(form).querySelector(`#${id}-error`)!.hasAttribute('aria-live'), id).to.equal(
        false,
      );
    expect(root(form).activeElement?.id).to.equal('number');
  });

  it('describes the empty number field by nothing, names the brand once known, shows the accepted brands', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    expect(description(form, 'number')).to.equal('');
    const brands = root(form).querySelector('[part=brands]')!;
    expect(brands.getAttribute('role')).to.equal('img');
    expect(brands.getAttribute('aria-label')).to.equal(
      'We accept Visa, Mastercard, American Express and Diners Club',
    );
    expect(brands.querySelectorAll('svg').length).to.equal(4);
    // Lettering drawn, not typeset: the same marks with or without Arial, and no font to load for them.
    expect(brands.querySelectorAll('text').length).to.equal(0);
    expect(root(form).querySelector('[part=brand]')).to.equal(null);
    await typeByKeyboard(form, 'number', '4111');
    expect(description(form, 'number')).to.equal('Visa');
    expect(root(form).querySelector('[part=brand] svg')).not.to.equal(null);
    expect(root(form).textContent).not.to.match(/\bMC\b|\bDC\b/);
    expect(brands.querySelectorAll('[data-dim]').length).to.equal(3);
    await expect(form).to.be.accessible();
  });

  it('exposes required fields and the language of its locale', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form locale="af"></pg-card-form>`);
    for (const id of ['number', 'holder', 'expiry', 'cvv'])
      expect(field(form, id).required, id).to.equal(true);
    expect(root(form).querySelector('form')!.getAttribute('lang')).to.equal('af');
  });

  it('Backspace and Delete step over the separators', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    await typeByKeyboard(form, 'expiry', `08${year}`);
    const expiry = field(form, 'expiry');
    expect(expiry.value).to.equal(`08 / ${year}`);
    await sendKeys({ press: 'Backspace' });
    await sendKeys({ press: 'Backspace' });
    await form.updateComplete;
    expect(expiry.value).to.equal('08');
    await typeByKeyboard(form, 'expiry', year);
    expiry.setSelectionRange(5, 5); // after "08 / "
    await sendKeys({ press: 'Backspace' });
    await form.updateComplete;
    expect(expiry.value).to.equal(`0${year}`.replace(/^(\d\d)(\d+)$/, '$1 / $2'));
    await typeByKeyboard(form, 'number', '4111222233334444');
    const number = field(form, 'number');
    expect(number.value).to.equal('4111 2222 3333 4444');
    number.setSelectionRange(4, 4); // before the first space
    await sendKeys({ press: 'Delete' });
    await form.updateComplete;
    expect(number.value).to.equal('4111 2223 3334 444');
    expect(number.selectionStart).to.equal(4);
    number.setSelectionRange(5, 5); // after the first space
    await sendKeys({ press: 'Backspace' });
    await form.updateComplete;
    expect(number.value).to.equal('4112 2233 3344 44');
  });

  it('the focus ring has 3:1 against the field and the page, light and dark', async () => {
    for (const appearance of ['light', 'dark']) {
      const wrapper = await fixture<HTMLDivElement>(
        html`<div style="background:${appearance === 'dark' ? '#0f172a' : '#fff'};padding:8px">
          <button id="before">before</button><pg-card-form appearance=${appearance}></pg-card-form>
        </div>`,
      );
      const form = wrapper.querySelector('pg-card-form') as PgCardForm;
      wrapper.querySelector<HTMLButtonElement>('#before')!.focus();
      await sendKeys({ press: 'Tab' });
      const input = field(form, 'number');
      expect(root(form).activeElement).to.equal(input);
      const shadow = getComputedStyle(input).boxShadow;
      const colours = shadow.match(/rgba?\([^)]*\)/g) ?? [];
      const ring = colours[colours.length - 1]!;
      expect(ring, shadow).to.match(/^rgb\(/); // opaque
      const field_ = getComputedStyle(input).backgroundColor;
      const page = getComputedStyle(wrapper).backgroundColor;
      expect(contrast(ring, field_), `${appearance} ring vs field`).to.be.at.least(3);
      expect(contrast(ring, page), `${appearance} ring vs page`).to.be.at.least(3);
    }
  });

  it('keeps every digit of a long number in sight at 320 px', async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div style="width:320px;padding:16px;box-sizing:border-box">
        <pg-card-form></pg-card-form>
      </div>`,
    );
    const form = wrapper.querySelector('pg-card-form') as PgCardForm;
    await typeByKeyboard(form, 'number', '4111111111111111111');
    const number = field(form, 'number');
    expect(number.value).to.equal('4111 1111 1111 1111111');
    expect(number.scrollWidth).to.be.at.most(number.clientWidth);
    number.setSelectionRange(0, 0);
    expect(number.scrollLeft).to.equal(0);
  });

  it('a payment sent with Enter from the security code and then cleared shows no error', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    await typeByKeyboard(form, 'number', '4000000000000002');
    await typeByKeyboard(form, 'holder', 'Jo Soap');
    await typeByKeyboard(form, 'expiry', `08${year}`);
    await typeByKeyboard(form, 'cvv', '123');
    const submitted = oneEvent(form, 'pg-submit');
    await sendKeys({ press: 'Enter' });
    await submitted;
    form.busy = false;
    await form.clearCard();
    await form.updateComplete;
    expect(root(form).activeElement?.id).to.equal('number');
    for (const id of ['number', 'holder', 'expiry', 'cvv']) {
      expect(errorText(form, id), id).to.equal('');
      expect(field(form, id).getAttribute('aria-invalid'), id).to.equal('false');
    }
  });
});
