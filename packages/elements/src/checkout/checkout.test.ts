import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import type { PgCardForm } from '../card-form/card-form.component.js';
import { backend, decide, record, until } from '../test-helpers/backend.js';
import { field, fillCard } from '../test-helpers/input.js';
import './checkout.js';
import type { PgCheckout } from './checkout.component.js';

async function dropIn(attrs: { locale?: string; methods?: string; savedCards?: boolean } = {}) {
  const { endpoint } = await backend();
  const el = await fixture<PgCheckout>(
    html`<pg-checkout
      endpoint=${endpoint}
      locale=${attrs.locale ?? 'en'}
      methods=${attrs.methods ?? ''}
      ?saved-cards=${attrs.savedCards ?? false}
      method-timeout="200"
      poll-interval="100"
    ></pg-checkout>`,
  );
  await until(
    () =>
      el
        .shadowRoot!.querySelector('pg-card-form')
        ?.shadowRoot?.querySelector('button')
        ?.textContent?.includes('123') ?? false,
  );
  return el;
}

const form = (el: PgCheckout) => el.shadowRoot!.querySelector('pg-card-form') as PgCardForm;
const message = (el: PgCheckout) =>
  el.shadowRoot!.querySelector('[part=message]')!.textContent!.trim();

async function pay(el: PgCheckout, number: string) {
  const f = form(el);
  await fillCard(f, number);
  f.shadowRoot!.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
}

const settled = (el: PgCheckout) =>
  until(() => ['approved', 'declined', 'failed', 'pending'].includes(el.status), 15000);

describe('<pg-checkout>', () => {
  it('loads the order for the pay button and is accessible when idle', async () => {
    const el = await dropIn();
    expect(el.getAttribute('status')).to.equal('idle');
    expect(form(el).shadowRoot!.querySelector('button[type=submit]')!.textContent).to.match(
      // Formatted for the shop's region: "R 123,45" in en-ZA, never "ZAR 123.45".
      /Pay R\s?123,45/,
    );
    await expect(el).to.be.accessible();
  });

  it('refresh() reads the order again: a changed cart shows its amount, an unreadable one no amount', async () => {
    const el = await dropIn();
    const payLabel = () =>
      form(el).shadowRoot!.querySelector('button[type=submit]')!.textContent!.trim();
    const realFetch = globalThis.fetch;
    // The order's answer, and how long it takes (each read keeps what was set when it was sent).
    let answer: Response | undefined;
    let delayMs = 0;
    globalThis.fetch = (input, init) => {
      if (!answer || !String(input).endsWith('/config')) return realFetch(input, init);
      const [response, delay] = [answer.clone(), delayMs];
      return new Promise((resolve) => setTimeout(() => resolve(response), delay));
    };
    try {
      const order = { success: true, currency: 'ZAR', methods: ['card'], savedCards: false };
      answer = Response.json({ ...order, amount: 44700 });
      await el.refresh();
      expect(payLabel()).to.match(/^Pay R\s447,00$/);
      // Two refreshes, the later answered last: the earlier resolves only once the later is shown.
      answer = Response.json({ ...order, amount: 29800 });
      const first = el.refresh();
      answer = Response.json({ ...order, amount: 14900 });
      delayMs = 100;
      const second = el.refresh();
      await first;
      expect(payLabel()).to.match(/^Pay R\s149,00$/);
      await second;
      delayMs = 0;
      answer = Response.json(
        { success: false, code: 'internal_error', message: '' },
        { status: 500 },
      );
      await el.refresh();
      expect(payLabel()).to.equal('Pay');
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('pays with a card: submitting then approved, events and a localized message', async () => {
    const el = await dropIn();
    const statuses: string[] = [];
    el.addEventListener('pg-status-change', (e) => statuses.push(e.detail.status));
    const approved = oneEvent(el, 'pg-approved');
    await pay(el, '4111111111111111');
    const event = await approved;
    expect(event.detail.reference).to.match(/^ref-/);
    expect(statuses).to.deep.equal(['submitting', 'approved']);
    expect(el.getAttribute('status')).to.equal('approved');
    expect(message(el)).to.contain('Payment successful');
    expect(message(el)).not.to.contain('raw server text');
    expect(el.shadowRoot!.querySelector('pg-card-form')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('one click, one payment', async () => {
    const el = await dropIn();
    const original = window.fetch;
    let creates = 0;
    window.fetch = (input, init) => {
      if (String(input).endsWith('/payments') && init?.method === 'POST') creates += 1;
      return original(input, init);
    };
    try {
      await pay(el, '4111111111111111');
      form(el).submit();
      form(el).shadowRoot!.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
      await settled(el);
      expect(creates).to.equal(1);
    } finally {
      window.fetch = original;
    }
  });

  it('a decline says so, clears the card and lets the shopper retry with another card', async () => {
    const el = await dropIn();
    const declined = oneEvent(el, 'pg-declined');
    await pay(el, '4000000000009995');
    const event = await declined;
    expect(event.detail).to.include({ code: 'card_declined', originalErrorCode: 'fin051' });
    expect(JSON.stringify(event.detail)).not.to.contain('4000000000009995');
    expect(el.status).to.equal('declined');
    expect(message(el)).to.equal(
      'Your card was declined for insufficient funds. Try another card.',
    );
    await until(() => field(form(el), 'number').value === '');
    expect(form(el).busy).to.equal(false);
    await expect(el).to.be.accessible();
    // The reason has focus; the way on is "Try another card", with no Pay beside it until then.
    await until(
      () => el.shadowRoot!.activeElement === el.shadowRoot!.querySelector('[part=message]'),
    );
    expect(el.shadowRoot!.querySelector<HTMLElement>('[part=card]')!.hidden).to.equal(true);
    const retry = el.shadowRoot!.querySelector<HTMLButtonElement>('[part=retry]')!;
    expect(retry.textContent!.trim()).to.equal('Try another card');
    retry.click();
    await until(() => el.status === 'idle');
    await until(() => form(el).shadowRoot!.activeElement?.id === 'number');
    expect(message(el)).to.equal('');
    const firstReference = el.reference;
    expect(firstReference).to.match(/^ref-/);
    await pay(el, '4111111111111111');
    await settled(el);
    await until(() => el.status === 'approved');
    expect(el.getAttribute('reference')).to.match(/^ref-/);
    expect(el.reference).not.to.equal(firstReference);
  });

  it('runs 3-D Secure v2 (method step, then challenge) inside the drop-in', async () => {
    const el = await dropIn();
    const steps: string[] = [];
    el.addEventListener('pg-threeds-start', (e) => steps.push(e.detail.step));
    const statuses: string[] = [];
    el.addEventListener('pg-status-change', (e) => statuses.push(e.detail.status));
    await pay(el, '4000000000003063');
    await until(() => el.status === 'authenticating');
    expect(el.shadowRoot!.querySelector<HTMLElement>('[part=card]')!.hidden).to.equal(true);
    await settled(el);
    expect(el.status).to.equal('approved');
    expect(steps).to.deep.equal(['method', 'challenge']);
    expect(statuses).to.deep.equal(['submitting', 'authenticating', 'approved']);
    expect(el.shadowRoot!.querySelector('pg-3ds-v2')).to.equal(null);
  });

  it('runs 3-D Secure v1, and an authentication failure is `failed`, not a decline', async () => {
    const el = await dropIn();
    await pay(el, '4000000000003097');
    await settled(el);
    expect(el.status).to.equal('approved');
    const other = await dropIn();
    await pay(other, '4000000000000127');
    await settled(other);
    expect(other.status).to.equal('failed');
    expect(message(other)).to.equal(
      'Your bank could not verify this payment. Try again or use another card.',
    );
    const retry = other.shadowRoot!.querySelector('[part=retry]')!;
    expect(retry.textContent!.trim()).to.equal('Try again');
  });

  it('is accessible during a challenge, and a cancelled challenge is a clear failure', async () => {
    const el = await dropIn();
    const failed = oneEvent(el, 'pg-failed');
    await pay(el, '4000000000000010');
    await until(
      () =>
        el
          .shadowRoot!.querySelector('pg-3ds-v2')
          ?.shadowRoot?.querySelector('iframe[part=frame]') != null,
    );
    await expect(el).to.be.accessible();
    el.shadowRoot!.querySelector('pg-3ds-v2')!.cancel();
    expect((await failed).detail.code).to.equal('authentication_cancelled');
    expect(el.status).to.equal('failed');
    expect(message(el)).to.contain('cancelled');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector<HTMLElement>('[part=card]')!.hidden).to.equal(true);
    expect(el.shadowRoot!.querySelector('[part=retry]')).not.to.equal(null);
  });

  it('sends the shopper to the redirect URL for EFT', async () => {
    const el = await dropIn({ methods: 'card eft' });
    const button = el.shadowRoot!.querySelector<HTMLButtonElement>(
      '[part=method][data-method=eft]',
    )!;
    expect(button.textContent!.trim()).to.equal('Pay by instant EFT');
    el.addEventListener('pg-redirect', (e) => e.preventDefault());
    const redirect = oneEvent(el, 'pg-redirect');
    button.click();
    const event = await redirect;
    expect(event.detail.method).to.equal('eft');
    expect(event.detail.redirectUrl).to.match(/\/pay\/eft\/ref-/);
  });

  it('offers saved cards and pays with a token', async () => {
    const el = await dropIn({ savedCards: true });
    await until(
      () => (form(el).shadowRoot!.querySelectorAll('input[type=radio]').length ?? 0) === 2,
    );
    const radio = form(el).shadowRoot!.querySelector<HTMLInputElement>('input[type=radio]')!;
    expect(radio.parentElement!.textContent).to.contain('Visa ending in 1111');
    expect(form(el).shadowRoot!.querySelector('input[type=checkbox]')).not.to.equal(null);
    radio.click();
    await form(el).updateComplete;
    form(el).submit();
    await settled(el);
    expect(el.status).to.equal('approved');
  });

  it('speaks Afrikaans, switches locale and takes overrides', async () => {
    const el = await dropIn({ locale: 'af', methods: 'card hosted' });
    expect(form(el).shadowRoot!.querySelector('label[for=number]')!.textContent!.trim()).to.equal(
      'Kaartnommer',
    );
    expect(el.shadowRoot!.querySelector('[part=method]')!.textContent!.trim()).to.equal(
      'Betaal in ’n ander geldeenheid',
    );
    el.messages = { methodHosted: 'Foreign cards' };
    el.locale = 'en';
    await el.updateComplete;
    await form(el).updateComplete;
    expect(form(el).shadowRoot!.querySelector('label[for=number]')!.textContent!.trim()).to.equal(
      'Card number',
    );
    expect(el.shadowRoot!.querySelector('[part=method]')!.textContent!.trim()).to.equal(
      'Foreign cards',
    );
  });

  it('a payment whose answer never came is checked, never shown as failed or thrown', async () => {
    const el = await fixture<PgCheckout>(
      html`<pg-checkout endpoint="http://127.0.0.1:9/checkout" poll-interval="100"></pg-checkout>`,
    );
    await pay(el, '4111111111111111');
    // Nothing answers, the order read neither: it keeps checking (test/...lost-answer has the outcomes).
    await until(() => el.status === 'checking');
    await new Promise((r) => setTimeout(r, 500));
    expect(el.status).to.equal('checking');
    expect(message(el)).to.match(/^Checking whether your payment went through/);
  });

  it('lets the merchant lay out their own card form in the slot', async () => {
    const { endpoint } = await backend();
    const el = await fixture<PgCheckout>(
      html`<pg-checkout endpoint=${endpoint}><pg-card-form></pg-card-form></pg-checkout>`,
    );
    const own = el.querySelector('pg-card-form') as PgCardForm;
    await fillCard(own, '4111111111111111');
    own.submit();
    await settled(el);
    expect(el.status).to.equal('approved');
  });

  it('passes the dark appearance on and stays accessible', async () => {
    const el = await dropIn();
    // Dark sits on the merchant's own dark surface (it paints none of its own).
    el.parentElement!.style.background = '#0f172a';
    el.appearance = 'dark';
    await el.updateComplete;
    expect(form(el).getAttribute('appearance')).to.equal('dark');
    await expect(el).to.be.accessible();
  });

  describe('owning and resuming a payment', () => {
    const storageKey = async () => `pg-checkout:payment:${(await backend()).endpoint}`;
    const stored = async () => {
      const raw = sessionStorage.getItem(await storageKey());
      return raw ? (JSON.parse(raw) as { reference: string; clientSecret: string }) : undefined;
    };
    const challengeOpen = (el: PgCheckout) =>
      until(
        () =>
          el
            .shadowRoot!.querySelector('pg-3ds-v2')
            ?.shadowRoot?.querySelector('iframe[part=frame]') != null,
      );
    /** A drop-in as a reloaded page would create it: no waiting for the card form. */
    async function reloaded() {
      const { endpoint } = await backend();
      return fixture<PgCheckout>(
        html`<pg-checkout endpoint=${endpoint} poll-interval="100"></pg-checkout>`,
      );
    }

    beforeEach(async () => sessionStorage.removeItem(await storageKey()));

    it('keeps reference and secret in sessionStorage while 3-D Secure runs, nowhere public, and clears them at the end', async () => {
      const el = await dropIn();
      const details: unknown[] = [];
      for (const type of [
        'pg-status-change',
        'pg-threeds-start',
        'pg-threeds-complete',
        'pg-approved',
        'pg-failed',
      ])
        el.addEventListener(type, (e) => details.push((e as CustomEvent).detail));
      await pay(el, '4000000000000010');
      await challengeOpen(el);
      const entry = await stored();
      expect(entry?.reference).to.equal(el.reference);
      expect(entry?.clientSecret).to.match(/^[\w-]{43}$/);
      const secret = entry!.clientSecret;
      expect(el.outerHTML).not.to.contain(secret);
      expect(el.shadowRoot!.innerHTML).not.to.contain(secret);
      await decide(el.reference);
      await settled(el);
      expect(el.status).to.equal('approved');
      expect(await stored()).to.equal(undefined);
      expect(JSON.stringify(details)).not.to.contain(secret);
      expect(details.length).to.be.at.least(4);
    });

    it('stores nothing for a payment that needs no 3-D Secure', async () => {
      const el = await dropIn();
      await pay(el, '4111111111111111');
      await settled(el);
      expect(el.status).to.equal('approved');
      expect(await stored()).to.equal(undefined);
      expect((await record(el.reference)).createdWithSecretHeader).to.equal(false);
    });

    it('after a reload, shows the outcome the gateway decided meanwhile', async () => {
      const el = await dropIn();
      await pay(el, '4000000000000010');
      await challengeOpen(el);
      const reference = el.reference;
      el.remove(); // the page goes away mid-challenge
      expect((await stored())?.reference).to.equal(reference);
      await decide(reference, 'decline');
      const again = await reloaded();
      await settled(again);
      expect(again.status).to.equal('declined');
      expect(again.reference).to.equal(reference);
      expect(message(again)).to.equal('Your card was declined. Try another card.');
      expect(await stored()).to.equal(undefined);
      expect((await record(reference)).deniedRequests ?? 0).to.equal(0);
    });

    it('after a reload, reopens the challenge of a payment still authenticating', async () => {
      const el = await dropIn();
      await pay(el, '4000000000000010');
      await challengeOpen(el);
      const reference = el.reference;
      el.remove();
      const again = await reloaded();
      await until(() => again.status === 'authenticating');
      await challengeOpen(again);
      expect((await stored())?.reference).to.equal(reference);
      await decide(reference);
      await settled(again);
      expect(again.status).to.equal('approved');
      expect(await stored()).to.equal(undefined);
    });

    it('forgets quietly a stored payment the middleware does not know', async () => {
      const key = await storageKey();
      sessionStorage.setItem(
        key,
        JSON.stringify({ reference: 'ref-unknown', clientSecret: 'x'.repeat(43) }),
      );
      const el = await reloaded();
      await until(() => sessionStorage.getItem(key) === null);
      await until(() => el.status === 'idle');
      expect(el.reference).to.equal('');
      expect(message(el)).to.equal('');
    });
  });
});
