import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { CardDetails } from '../api/types.js';
import { blur, field, typeInto } from '../test-helpers/input.js';
import './card-form.js';
import type { PgCardForm } from './card-form.component.js';

const year = new Date().getFullYear() + 2;

async function filled(form: PgCardForm, number = '4111111111111111', cvv = '123') {
  typeInto(field(form, 'number'), number);
  typeInto(field(form, 'holder'), 'Jo Soap');
  typeInto(field(form, 'expiry'), `08${String(year).slice(2)}`);
  typeInto(field(form, 'cvv'), cvv);
  await form.updateComplete;
}

const submitButton = (form: PgCardForm) =>
  form.shadowRoot!.querySelector<HTMLButtonElement>('button[type=submit]')!;
const errorText = (form: PgCardForm, id: string) =>
  form.shadowRoot!.querySelector(`#${id}-error`)!.textContent!.trim();

describe('<pg-card-form>', () => {
  it('has the fixed autocomplete contract, numeric keyboards and labels', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    const expected = { number: 'cc-number', holder: 'cc-name', expiry: 'cc-exp', cvv: 'cc-csc' };
    for (const [id, autocomplete] of Object.entries(expected)) {
      const input = field(form, id);
      expect(input.getAttribute('autocomplete')).to.equal(autocomplete);
      expect(form.shadowRoot!.querySelector(`label[for=${id}]`)).not.to.equal(null);
    }
    for (const id of ['number', 'expiry', 'cvv'])
      expect(field(form, id).inputMode).to.equal('numeric');
    expect(form.shadowRoot!.querySelector('iframe')).to.equal(null);
    await expect(form).to.be.accessible();
  });

  it('groups the number by brand as the shopper types and names the brand', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    const number = field(form, 'number');
    typeInto(number, '378282246310005');
    await form.updateComplete;
    expect(number.value).to.equal('3782 822463 10005');
    const brand = form.shadowRoot!.querySelector('[part=brand]')!;
    expect(brand.getAttribute('role')).to.equal('img');
    expect(brand.getAttribute('aria-label')).to.equal('American Express');
    expect(form.shadowRoot!.querySelector('#cvv-hint')!.textContent).to.contain('4 digits');
    typeInto(number, '2223003122003222');
    await form.updateComplete;
    expect(brand.getAttribute('aria-label')).to.equal('Mastercard');
    expect(number.value).to.equal('2223 0031 2200 3222');
  });

  it('takes a pasted number with dashes and keeps the caret on its digit', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    const number = field(form, 'number');
    typeInto(number, '4111-1111-1111-1111', 19, 'insertFromPaste');
    await form.updateComplete;
    expect(number.value).to.equal('4111 1111 1111 1111');
    // insert a digit in the middle: caret follows the inserted digit, not the end
    typeInto(number, '4111 51111 1111 111', 6);
    expect(number.value).to.equal('4111 5111 1111 1111');
    expect(number.selectionStart).to.equal(6);
  });

  it('deletes the digit before a group space on backspace', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    const number = field(form, 'number');
    typeInto(number, '41111111');
    await form.updateComplete;
    expect(number.value).to.equal('4111 1111');
    typeInto(number, '41111111', 4, 'deleteContentBackward');
    await form.updateComplete;
    expect(number.value).to.equal('4111 111');
    expect(number.selectionStart).to.equal(3);
  });

  it('formats expiry typing and autofill into MM / YY', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    const expiry = field(form, 'expiry');
    typeInto(expiry, '4');
    expect(expiry.value).to.equal('04');
    typeInto(expiry, `${year}-08`, 7, 'insertReplacementText');
    expect(expiry.value).to.equal(`08 / ${String(year).slice(2)}`);
    typeInto(expiry, `08 / ${year}`);
    blur(expiry);
    await form.updateComplete;
    expect(expiry.value).to.equal(`08 / ${String(year).slice(2)}`);
  });

  it('shows validation only after interaction, with aria-invalid and aria-describedby', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    const number = field(form, 'number');
    typeInto(number, '4111111111111112');
    await form.updateComplete;
    expect(number.getAttribute('aria-invalid')).to.equal('false');
    expect(errorText(form, 'number')).to.equal('');
    blur(number);
    await form.updateComplete;
    expect(number.getAttribute('aria-invalid')).to.equal('true');
    expect(errorText(form, 'number')).to.equal(
      'This card number is not valid. Check it and try again.',
    );
    expect(number.getAttribute('aria-describedby')!.split(' ')).to.include('number-error');
    // Said once by the form's one live region, not by a region per field.
    expect(form.shadowRoot!.querySelector('[part=status]')!.textContent!.trim()).to.equal(
      'This card number is not valid. Check it and try again.',
    );
    await expect(form).to.be.accessible();
  });

  it('validates each field with its own message', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    typeInto(field(form, 'number'), '378282246310005');
    typeInto(field(form, 'holder'), '1234');
    typeInto(field(form, 'expiry'), '0120');
    typeInto(field(form, 'cvv'), '123');
    for (const id of ['number', 'holder', 'expiry', 'cvv']) blur(field(form, id));
    await form.updateComplete;
    expect(errorText(form, 'number')).to.equal('');
    expect(errorText(form, 'holder')).to.equal(
      'Use only letters, spaces, apostrophes, dots and hyphens.',
    );
    expect(errorText(form, 'expiry')).to.equal('This card has expired.');
    expect(errorText(form, 'cvv')).to.equal('The security code has 4 digits.');
  });

  it('on submit with errors focuses the first invalid field and announces', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    let submitted = 0;
    form.addEventListener('pg-submit', () => (submitted += 1));
    typeInto(field(form, 'number'), '4111111111111111');
    submitButton(form).click();
    await form.updateComplete;
    await form.updateComplete;
    expect(submitted).to.equal(0);
    expect(form.shadowRoot!.activeElement?.id).to.equal('holder');
    expect(field(form, 'holder').getAttribute('aria-invalid')).to.equal('true');
    expect(form.shadowRoot!.querySelector('[role=status]')!.textContent!.trim()).to.equal(
      'Some details need your attention.',
    );
    await expect(form).to.be.accessible();
  });

  it('submits the gateway card JSON, and no card data in the event', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    await filled(form);
    setTimeout(() => submitButton(form).click());
    const event = await oneEvent(form, 'pg-submit');
    expect(event.detail).to.deep.equal({ cardType: 'visa', savedCard: false, saveCard: false });
    expect(JSON.stringify(event.detail)).not.to.contain('1111');
    const request = form.getPaymentRequest()!;
    expect(request.card).to.deep.equal({
      number: '4111111111111111',
      cardHolder: 'Jo Soap',
      expiryMonth: 8,
      expiryYear: year,
      cvv: '123',
      type: 'visa',
    } satisfies CardDetails);
    expect(request.screenWidth).to.equal(window.screen.width);
    expect(request.screenHeight).to.equal(window.screen.height);
    expect(form.outerHTML).not.to.contain('4111');
  });

  it('one click, one payment: the button ignores clicks while busy, keeps focus and shows progress', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    await filled(form);
    let submitted = 0;
    form.addEventListener('pg-submit', () => (submitted += 1));
    submitButton(form).click();
    submitButton(form).click();
    form.submit();
    await form.updateComplete;
    expect(submitted).to.equal(1);
    expect(form.busy).to.equal(true);
    expect(submitButton(form).getAttribute('aria-disabled')).to.equal('true');
    expect(submitButton(form).textContent!.trim()).to.equal('Processing…');
    expect(submitButton(form).querySelector('.spinner')).not.to.equal(null);
    await expect(form).to.be.accessible();
    form.busy = false;
    await form.updateComplete;
    submitButton(form).click();
    expect(submitted).to.equal(2);
  });

  it('a cancelled pg-submit leaves the form usable', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    await filled(form);
    form.addEventListener('pg-submit', (e) => e.preventDefault());
    submitButton(form).click();
    await form.updateComplete;
    expect(form.busy).to.equal(false);
  });

  it('wants a 4 digit cvv for amex and trims a 4 digit cvv when the brand changes', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    await filled(form, '378282246310005', '1234');
    expect(form.checkValidity()).to.equal(true);
    expect((form.getPaymentRequest()!.card as CardDetails).cvv).to.equal('1234');
    typeInto(field(form, 'number'), '4111111111111111');
    await form.updateComplete;
    expect(field(form, 'cvv').value).to.equal('123');
  });

  it('switches locale and takes per-string overrides', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form locale="af"></pg-card-form>`);
    expect(form.shadowRoot!.querySelector('label[for=number]')!.textContent!.trim()).to.equal(
      'Kaartnommer',
    );
    expect(submitButton(form).textContent!.trim()).to.equal('Betaal');
    form.messages = { pay: 'Koop nou' };
    form.locale = 'en-ZA';
    await form.updateComplete;
    expect(form.shadowRoot!.querySelector('label[for=number]')!.textContent!.trim()).to.equal(
      'Card number',
    );
    expect(submitButton(form).textContent!.trim()).to.equal('Koop nou');
  });

  it('pays with a saved card token and offers to save a new card', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form allow-save></pg-card-form>`);
    form.savedCards = [
      {
        token: 'tok_1',
        number: '411111XXXXXX1111',
        type: 'visa',
        expiryMonth: 8,
        expiryYear: year,
        cardHolder: 'Jo Soap',
      },
    ];
    await form.updateComplete;
    const radios = form.shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=radio]');
    expect(radios.length).to.equal(2);
    expect(radios[0]!.parentElement!.textContent).to.contain('Visa ending in 1111');
    radios[0]!.click();
    await form.updateComplete;
    expect(form.shadowRoot!.querySelector('#number')).to.equal(null);
    expect(form.getPaymentRequest()!.card).to.deep.equal({ token: 'tok_1' });
    await expect(form).to.be.accessible();
    radios[1]!.click();
    await form.updateComplete;
    await filled(form);
    form.shadowRoot!.querySelector<HTMLInputElement>('input[type=checkbox]')!.click();
    await form.updateComplete;
    expect(form.getPaymentRequest()!.saveCard).to.equal(true);
  });

  it('is accessible in the dark appearance and at 320px', async () => {
    const wrapper = await fixture<HTMLDivElement>(
      // Dark sits on the merchant's own dark surface, not on a slab of its own.
      html`<div style="width:320px;background:#0f172a">
        <pg-card-form appearance="dark"></pg-card-form>
      </div>`,
    );
    const el = wrapper.querySelector('pg-card-form') as PgCardForm;
    await el.updateComplete;
    expect(el.scrollWidth).to.be.at.most(320);
    await expect(el).to.be.accessible();
  });

  it('works from the keyboard alone: tab order and Enter to pay', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    const active = () => form.shadowRoot!.activeElement;
    field(form, 'number').focus();
    await sendKeys({ type: '4111111111111111' });
    await sendKeys({ press: 'Tab' });
    expect(active()?.id).to.equal('holder');
    await sendKeys({ type: 'Jo Soap' });
    await sendKeys({ press: 'Tab' });
    expect(active()?.id).to.equal('expiry');
    await sendKeys({ type: `08${String(year).slice(2)}` });
    await sendKeys({ press: 'Tab' });
    expect(active()?.id).to.equal('cvv');
    await sendKeys({ type: '123' });
    expect(field(form, 'number').value).to.equal('4111 1111 1111 1111');
    expect(field(form, 'expiry').value).to.equal(`08 / ${String(year).slice(2)}`);
    const submitted = oneEvent(form, 'pg-submit');
    await sendKeys({ press: 'Enter' });
    expect((await submitted).detail.cardType).to.equal('visa');
  });

  it('clearCard empties the card fields for another attempt and focuses the number', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    await filled(form);
    await form.clearCard();
    expect(field(form, 'number').value).to.equal('');
    expect(field(form, 'cvv').value).to.equal('');
    expect(field(form, 'holder').value).to.equal('Jo Soap');
    expect(form.shadowRoot!.activeElement?.id).to.equal('number');
  });
});
