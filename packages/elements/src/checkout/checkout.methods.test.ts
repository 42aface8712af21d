import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { PAYMENT_METHODS, REDIRECT_METHODS } from '@pg-checkout/protocol/vocabulary';
import { until } from '../test-helpers/backend.js';
import { fakeShop, form, json } from '../test-helpers/fake-shop.js';
import './checkout.js';
import type { PgCheckout } from './checkout.component.js';

// The drop-in's methods are the vocabulary's: a redirect method added to REDIRECT_METHODS is a button
// here, with its label in every locale, its route and its event, and nothing in this file changes.
describe('<pg-checkout> offers the vocabulary’s methods', () => {
  let restore = () => {};
  afterEach(() => restore());

  async function dropIn(locale: string) {
    const shop = fakeShop({
      'GET /config': [
        json({ success: true, amount: 14900, currency: 'ZAR', methods: PAYMENT_METHODS }),
      ],
      ...Object.fromEntries(
        REDIRECT_METHODS.map((method) => [
          `POST /${method}`,
          [json({ success: true, reference: `ref-${method}`, redirectUrl: `/pay/${method}` })],
        ]),
      ),
    });
    restore = shop.restore;
    const el = await fixture<PgCheckout>(
      html`<pg-checkout
        endpoint=${shop.mount}
        locale=${locale}
        methods=${PAYMENT_METHODS.join(' ')}
      ></pg-checkout>`,
    );
    await until(() => /\d/.test(form(el)?.shadowRoot?.querySelector('button')?.textContent ?? ''));
    return { el, shop };
  }

  for (const locale of ['en', 'af']) {
    it(`a button for each redirect method, each with its own label (${locale})`, async () => {
      const { el } = await dropIn(locale);
      const buttons = [
        ...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part=method][data-method]'),
      ];
      expect(buttons.map((b) => b.dataset['method'])).to.deep.equal([...REDIRECT_METHODS]);
      const labels = buttons.map((b) => b.textContent!.trim());
      expect(labels.every((label) => label.length > 0 && !label.startsWith('method'))).to.equal(
        true,
      );
      expect(new Set(labels).size).to.equal(REDIRECT_METHODS.length);
    });
  }

  for (const method of REDIRECT_METHODS) {
    it(`${method}: its own route, then pg-redirect naming it`, async () => {
      const { el, shop } = await dropIn('en');
      el.addEventListener('pg-redirect', (e) => e.preventDefault());
      const redirect = oneEvent(el, 'pg-redirect');
      el.shadowRoot!.querySelector<HTMLButtonElement>(`[data-method=${method}]`)!.click();
      const event = await redirect;
      expect(event.detail.method).to.equal(method);
      expect(event.detail.redirectUrl).to.equal(`/pay/${method}`);
      expect(shop.count(`POST /${method}`)).to.equal(1);
    });
  }
});
