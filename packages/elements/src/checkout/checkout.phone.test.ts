import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { emulateMedia, sendMouse, setViewport } from '@web/test-runner-commands';
import type { PgCardForm } from '../card-form/card-form.component.js';
import '../card-form/card-form.js';
import { backend, until } from '../test-helpers/backend.js';
import { field, fillCard, typeInto } from '../test-helpers/input.js';
import './checkout.js';
import type { PgCheckout } from './checkout.component.js';

// A phone (375x667) with the shop's own content above the drop-in, as on the demo: one page load for
// where the challenge opens, what shows while the bank loads, and the tap targets.
describe('<pg-checkout> on a phone', () => {
  before(() => setViewport({ width: 375, height: 667 }));
  after(() => setViewport({ width: 800, height: 600 }));

  it('opens the challenge on screen with a 44 px close control, and a spinner until the bank page is there', async () => {
    const { endpoint } = await backend();
    const page = await fixture<HTMLDivElement>(
      html`<div>
        <div style="height:560px">the shop's header and cart</div>
        <pg-checkout endpoint=${endpoint} method-timeout="200" poll-interval="100"></pg-checkout>
      </div>`,
    );
    const el = page.querySelector('pg-checkout') as PgCheckout;
    const form = () => el.shadowRoot!.querySelector('pg-card-form') as PgCardForm;
    await until(() => /\d/.test(form()?.shadowRoot?.querySelector('button')?.textContent ?? ''));
    await fillCard(form(), '4000000000000010'); // the mock bank holds: the challenge stays open
    const started = oneEvent(el, 'pg-threeds-start');
    form().submit();
    await started;
    const shadow = () => el.shadowRoot!.querySelector('pg-3ds-v2')!.shadowRoot!;
    // Before the bank's page arrives the empty frame says something is loading.
    const loading = shadow().querySelector<HTMLElement>('.loading');
    expect(loading, 'a loading sign over the empty frame').not.to.equal(null);
    expect(loading!.getBoundingClientRect().height).to.be.above(0);
    const frame = shadow().querySelector<HTMLIFrameElement>('iframe[part=frame]')!;
    await until(() => shadow().activeElement === frame, 10000);
    await el.updateComplete;
    expect(shadow().querySelector('.loading'), 'gone once the bank page is there').to.equal(null);
    const close = shadow().querySelector<HTMLElement>('[part=cancel]')!.getBoundingClientRect();
    const box = frame.getBoundingClientRect();
    expect(close.top, 'the close control is on screen').to.be.at.least(0);
    expect(box.bottom, "the bank's page is on screen").to.be.at.most(innerHeight);
    expect(close.width).to.be.at.least(44);
    expect(close.height).to.be.at.least(44);
    el.shadowRoot!.querySelector('pg-3ds-v2')!.cancel();
    await until(() => el.status === 'failed');
  });

  it('the whole card number shows in its field with 150% text on a phone', async () => {
    const root = document.documentElement;
    root.style.fontSize = '24px';
    try {
      const wrapper = await fixture<HTMLDivElement>(
        html`<div style="width:311px;font-size:24px"><pg-card-form></pg-card-form></div>`,
      );
      const form = wrapper.querySelector('pg-card-form') as PgCardForm;
      typeInto(field(form, 'number'), '4111111111111111');
      await form.updateComplete;
      const input = field(form, 'number');
      expect(input.value).to.equal('4111 1111 1111 1111');
      expect(input.scrollWidth, 'nothing scrolled out of sight').to.be.at.most(input.clientWidth);
    } finally {
      root.style.fontSize = '';
    }
  });

  it('the whole card number shows with 150% text in the demo shop on a 375 px phone (its padding grows too)', async () => {
    const root = document.documentElement;
    root.style.fontSize = '150%';
    try {
      // 375 px less the shop's and its panel's 1rem padding on each side, at 24 px to the rem.
      const wrapper = await fixture<HTMLDivElement>(
        html`<div style="width:calc(375px - 4rem)"><pg-card-form></pg-card-form></div>`,
      );
      const form = wrapper.querySelector('pg-card-form') as PgCardForm;
      typeInto(field(form, 'number'), '4000000000003063');
      await form.updateComplete;
      const input = field(form, 'number');
      expect(input.value).to.equal('4000 0000 0000 3063');
      expect(input.scrollWidth, 'nothing scrolled out of sight').to.be.at.most(input.clientWidth);
    } finally {
      root.style.fontSize = '';
    }
  });

  it('"save this card" is a 44 px tap target', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form allow-save></pg-card-form>`);
    const row = form.shadowRoot!.querySelector('[part=save-card]')!.getBoundingClientRect();
    expect(row.height).to.be.at.least(44);
  });

  it('the first tap on Pay lands even when the field it leaves has something to say', async () => {
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    await fillCard(form, '4111111111111111', '1');
    typeInto(field(form, 'cvv'), '12'); // the shopper is still in the security code, one digit short
    await form.updateComplete;
    const pay = form.shadowRoot!.querySelector('button[type=submit]')!.getBoundingClientRect();
    // A real pointer: the field loses focus on press, the click needs the release on the same button.
    await sendMouse({
      type: 'click',
      position: [Math.round(pay.x + pay.width / 2), Math.round(pay.y + pay.height / 2)],
    });
    await form.updateComplete;
    expect(form.shadowRoot!.querySelector('[part=status]')!.textContent!.trim()).to.equal(
      'Some details need your attention.',
    );
  });
});

describe('with reduced motion', () => {
  // Firefox's WebDriver BiDi driver cannot emulate the media feature (the Chromium run checks it).
  const emulates = !navigator.userAgent.includes('Firefox');
  after(async () => {
    if (emulates) await emulateMedia({ reducedMotion: 'no-preference' });
  });

  it('the spinner stands still', async function (this: { skip(): void }) {
    if (!emulates) this.skip();
    await emulateMedia({ reducedMotion: 'reduce' });
    const form = await fixture<PgCardForm>(html`<pg-card-form></pg-card-form>`);
    form.busy = true;
    await form.updateComplete;
    const spinner = form.shadowRoot!.querySelector('.spinner')!;
    expect(matchMedia('(prefers-reduced-motion: reduce)').matches).to.equal(true);
    expect(getComputedStyle(spinner).animationName).to.equal('none');
  });
});
