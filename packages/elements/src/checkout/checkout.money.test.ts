import { expect, fixture, fixtureCleanup, html, oneEvent } from '@open-wc/testing';
import type { Pg3dsV2 } from '../three-ds/3ds-v2.component.js';
import { backend, decide, record, until } from '../test-helpers/backend.js';
import { fillCard } from '../test-helpers/input.js';
import { setOnline } from '../test-helpers/online.js';
import { actions, fakeShop, form, json, message, none, part } from '../test-helpers/fake-shop.js';
import './checkout.js';
import type { PgCheckout } from './checkout.component.js';

// Issue 29, the money truth: what the drop-in says in every tab, after every reload and every close.

const approved = (reference = 'ref-a', extra: object = {}) => ({
  success: true,
  status: 'approved',
  reference,
  message: 'raw server text',
  clientSecret: 's',
  ...extra,
});

const payLabel = (el: PgCheckout) =>
  form(el)?.shadowRoot?.querySelector('button[type=submit]')?.textContent?.trim() ?? '';

async function dropIn(mount: string, waitForForm = true) {
  const el = await fixture<PgCheckout>(
    html`<pg-checkout endpoint=${mount} poll-interval="50"></pg-checkout>`,
  );
  if (waitForForm) await until(() => /\d/.test(payLabel(el)));
  return el;
}

async function pay(el: PgCheckout, number = '4111111111111111') {
  await fillCard(form(el), number);
  form(el).submit();
}

function statuses(el: PgCheckout) {
  const seen: string[] = [];
  el.addEventListener('pg-status-change', (e) => seen.push(e.detail.status));
  return seen;
}

describe('<pg-checkout> and the money truth', () => {
  let restore = () => {};
  afterEach(() => {
    restore();
    restore = () => {};
    localStorage.clear();
    sessionStorage.clear();
  });

  describe('a closed bank check (point 6)', () => {
    it('closed after the bank’s answer reached the shop: checking, then the payment it is, never "no payment was made"', async () => {
      const { endpoint } = await backend();
      const el = await dropIn(endpoint);
      const seen = statuses(el);
      await pay(el, '4000000000000010');
      const v2 = () => el.shadowRoot!.querySelector<Pg3dsV2>('pg-3ds-v2');
      await until(() => v2()?.shadowRoot?.querySelector('iframe[part=frame]') != null, 10_000);
      // The shopper tapped the bank's Submit: the gateway has it authorized. Then the close control.
      await decide(el.reference, 'approve');
      v2()!.shadowRoot!.querySelector<HTMLButtonElement>('[part=cancel]')!.click();
      await until(() => el.status === 'approved', 10_000);
      await el.updateComplete;
      expect(seen).to.include('checking');
      expect(message(el)).to.match(/^Payment successful/);
      expect(message(el)).not.to.match(/cancelled|no payment/i);
    });

    it('closed while the gateway still waits: "cancelled, no payment was made" once the middleware confirmed it', async () => {
      const { endpoint } = await backend();
      const el = await dropIn(endpoint);
      const seen = statuses(el);
      await pay(el, '4000000000000010');
      const v2 = () => el.shadowRoot!.querySelector<Pg3dsV2>('pg-3ds-v2');
      await until(() => v2()?.shadowRoot?.querySelector('iframe[part=frame]') != null, 10_000);
      v2()!.shadowRoot!.querySelector<HTMLButtonElement>('[part=cancel]')!.click();
      await until(() => el.status === 'failed', 10_000);
      await el.updateComplete;
      expect(seen.slice(-2)).to.deep.equal(['checking', 'failed']);
      expect(message(el)).to.equal('The bank check was cancelled. No payment was made.');
      expect((await record(el.reference)).cancels).to.equal(1);
    });
  });

  it('a challenge that runs out of time after the bank’s answer came is that answer, not "no payment was made"', async () => {
    const { endpoint } = await backend();
    const el = await fixture<PgCheckout>(
      html`<pg-checkout
        endpoint=${endpoint}
        poll-interval="60000"
        challenge-timeout="1500"
      ></pg-checkout>`,
    );
    await until(() => /\d/.test(payLabel(el)));
    await pay(el, '4000000000000010');
    const v2 = () => el.shadowRoot!.querySelector<Pg3dsV2>('pg-3ds-v2');
    await until(() => v2()?.shadowRoot?.querySelector('iframe[part=frame]') != null, 10_000);
    await decide(el.reference, 'approve');
    await until(() => el.status === 'approved', 10_000);
    await el.updateComplete;
    expect(message(el)).to.match(/^Payment successful/);
  });

  it('sends the total it showed, and after amount_changed shows the new one for the next Pay (point 7)', async () => {
    const changed = {
      success: false,
      status: 'failed',
      code: 'amount_changed',
      message: 'raw',
      order: { amount: 44700, currency: 'ZAR' },
    };
    const shop = fakeShop({ 'POST /payments': [json(changed, 409), json(approved())] });
    restore = shop.restore;
    const el = await dropIn(shop.mount);
    expect(payLabel(el)).to.match(/R\s?149,00/);
    await pay(el);
    await until(() => /447,00/.test(payLabel(el)));
    await el.updateComplete;
    expect(shop.calls.find((c) => c.route === 'POST /payments')!.body).to.deep.include({
      shown: { amount: 14900, currency: 'ZAR' },
    });
    expect(el.status).to.equal('idle');
    expect(message(el)).to.equal(
      'The total is now R\u00a0447,00. Nothing was charged; check it and pay again.',
    );
    expect(actions(el).pay).to.equal(true);
    form(el).submit();
    await until(() => el.status === 'approved');
    expect(shop.calls.filter((c) => c.route === 'POST /payments')[1]!.body).to.deep.include({
      shown: { amount: 44700, currency: 'ZAR' },
    });
  });

  describe('an order another tab paid (point 8)', () => {
    it('Pay in tab B: "already paid, this card was not charged" with tab A’s reference', async () => {
      const shop = fakeShop({
        'POST /payments': [json(approved('ref-a', { alreadyPaid: true }))],
      });
      restore = shop.restore;
      const el = await dropIn(shop.mount);
      await pay(el, '5555555555554444');
      await until(() => el.status === 'approved');
      await el.updateComplete;
      expect(message(el)).to.equal(
        'This order is already paid. This card was not charged. Reference: ref-a',
      );
    });

    it('a bank check that ends after the other tab paid says the same, with the paid reference', async () => {
      const shop = fakeShop({
        'POST /payments': [
          json(
            {
              success: false,
              status: 'failed',
              reference: 'ref-b',
              code: 'already_paid',
              message: 'x',
            },
            409,
          ),
        ],
        'GET /order': [json({ success: true, status: 'paid', payment: approved('ref-a') })],
      });
      restore = shop.restore;
      const el = await dropIn(shop.mount);
      await pay(el);
      await until(() => el.status === 'approved');
      await el.updateComplete;
      expect(message(el)).to.equal(
        'This order is already paid. This card was not charged. Reference: ref-a',
      );
    });
  });

  describe('reload, a new tab, Back (points 9 and 10)', () => {
    it('a reload or new tab after paying shows the paid order, not an empty form', async () => {
      const shop = fakeShop({
        'POST /payments': [json(approved())],
        'GET /order': [json({ success: true, status: 'paid', payment: approved() })],
      });
      restore = shop.restore;
      const first = await dropIn(shop.mount);
      await pay(first);
      await until(() => first.status === 'approved');
      fixtureCleanup();
      // The page again (a reload, or the checkout in a new tab of the same browser).
      const again = await dropIn(shop.mount, false);
      const paid = new Promise((resolve) => again.addEventListener('pg-approved', resolve));
      await until(() => again.status === 'approved');
      await paid;
      await again.updateComplete;
      expect(message(again)).to.equal('Payment successful. Thank you! Reference: ref-a');
      expect(actions(again)).to.deep.equal(none);
      expect(shop.count('POST /payments')).to.equal(1);
    });

    it('a reload while checking says checking (no Pay), then the truth', async () => {
      const shop = fakeShop({
        'POST /payments': ['lost'],
        'GET /order': [
          json({ success: true, status: 'checking', message: 'x' }),
          json({ success: true, status: 'checking', message: 'x' }),
          json({ success: true, status: 'checking', message: 'x' }),
          json({ success: true, status: 'paid', payment: approved() }),
        ],
      });
      restore = shop.restore;
      const first = await dropIn(shop.mount);
      await pay(first);
      await until(() => first.status === 'checking');
      await until(() => shop.count('GET /order') === 1);
      fixtureCleanup();
      const again = await dropIn(shop.mount, false);
      await until(() => again.status === 'checking');
      await again.updateComplete;
      expect(message(again)).to.match(/^Checking whether your payment went through/);
      expect(actions(again)).to.deep.equal(none);
      await until(() => again.status === 'approved');
    });

    it('a browser that never paid here costs no order read on load', async () => {
      const shop = fakeShop({});
      restore = shop.restore;
      await dropIn(shop.mount);
      expect(shop.count('GET /order')).to.equal(0);
    });

    it('Back from the EFT page (back-forward cache): no stuck "Taking you to the payment page", the order decides', async () => {
      const shop = fakeShop({
        'POST /eft': [
          json({ success: true, reference: 'ref-e', redirectUrl: '/pay/eft', clientSecret: 's' }),
        ],
        'GET /order': [
          json({
            success: true,
            status: 'in_progress',
            payment: { ...approved('ref-e'), status: 'pending' },
          }),
          json({ success: true, status: 'paid', payment: approved('ref-c') }),
        ],
      });
      restore = shop.restore;
      const el = await dropIn(shop.mount);
      // The browser leaves for the EFT page (its navigation is not made here).
      el.addEventListener('pg-redirect', (e) => e.preventDefault());
      const left = oneEvent(el, 'pg-redirect');
      part(el, 'methods')!.querySelector<HTMLButtonElement>('[data-method=eft]')!.click();
      await left;
      await new Promise((r) => setTimeout(r));
      await el.updateComplete;
      expect(message(el)).to.match(/^Taking you to the payment page/);
      // Back: the page comes out of the back-forward cache as it was left.
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
      await until(() => shop.count('GET /order') === 1);
      await el.updateComplete;
      expect(el.status).to.equal('idle');
      expect(message(el)).to.equal('');
      expect(actions(el)).to.deep.equal({ pay: true, retry: false, methods: true });
      // Paid by card in another tab meanwhile, then Back again: the paid order, not the form.
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
      await until(() => el.status === 'approved');
      await el.updateComplete;
      expect(actions(el)).to.deep.equal(none);
    });
  });

  describe('offline at Pay (point 11)', () => {
    afterEach(() => setOnline(undefined));

    it('says "You are offline. Nothing was charged." and sends nothing', async () => {
      const shop = fakeShop({ 'POST /payments': [json(approved())] });
      restore = shop.restore;
      const el = await dropIn(shop.mount);
      setOnline(false);
      await pay(el);
      await until(() => el.status === 'failed');
      await el.updateComplete;
      expect(message(el)).to.equal('You are offline. Nothing was charged.');
      expect(shop.count('POST /payments')).to.equal(0);
      expect(actions(el)).to.deep.equal({ pay: false, retry: true, methods: false });
    });

    it('a request that failed after it was sent is never "nothing was charged": it is checking', async () => {
      const shop = fakeShop({
        'POST /payments': ['lost'],
        'GET /order': [json({ success: true, status: 'checking', message: 'x' })],
      });
      restore = shop.restore;
      const el = await dropIn(shop.mount);
      await pay(el);
      await until(() => el.status === 'checking');
      await el.updateComplete;
      expect(message(el)).not.to.match(/nothing was charged|offline/i);
    });
  });
});
