import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { until } from '../test-helpers/backend.js';
import { fillCard } from '../test-helpers/input.js';
import { actions, fakeShop, form, json, message, none, part } from '../test-helpers/fake-shop.js';
import './checkout.js';
import type { PgCheckout } from './checkout.component.js';

const lost = 'lost' as const;
const approved = {
  success: true,
  status: 'approved',
  reference: 'ref-77',
  message: 'raw server text',
  clientSecret: 's',
};

async function dropIn(mount: string, pollInterval = 60_000) {
  const el = await fixture<PgCheckout>(
    html`<pg-checkout endpoint=${mount} poll-interval=${pollInterval}></pg-checkout>`,
  );
  await until(() => /\d/.test(form(el)?.shadowRoot?.querySelector('button')?.textContent ?? ''));
  return el;
}

function record(el: PgCheckout) {
  const events: string[] = [];
  for (const type of ['pg-approved', 'pg-failed', 'pg-declined'])
    el.addEventListener(type, (e) =>
      events.push(`${type}:${(e as CustomEvent).detail.code ?? ''}`),
    );
  return events;
}

/** The connection comes back (the `online` event), again every 20 ms until `check` holds. */
const backOnlineUntil = (check: () => boolean) =>
  until(() => {
    if (check()) return true;
    window.dispatchEvent(new Event('online'));
    return false;
  });

async function pay(el: PgCheckout) {
  await fillCard(form(el), '4111111111111111');
  form(el).submit();
}

describe('<pg-checkout> after a lost answer', () => {
  let restore = () => {};
  afterEach(() => restore());

  it('says it is checking (no Pay, no Try again), asks the order again when back online, and shows it paid once', async () => {
    const shop = fakeShop({
      'POST /payments': [lost],
      'GET /order': [
        lost,
        json({ success: true, status: 'checking', message: 'x' }),
        json({ success: true, status: 'paid', payment: approved }),
      ],
    });
    restore = shop.restore;
    const el = await dropIn(shop.mount);
    const events = record(el);
    await pay(el);
    await until(() => el.status === 'checking');
    await until(() => shop.count('GET /order') === 1);
    await el.updateComplete;
    expect(message(el)).to.match(/^Checking whether your payment went through/);
    expect(message(el)).not.to.match(/could not reach|not charged|try again/i);
    expect(actions(el)).to.deep.equal(none);
    expect(el.shadowRoot!.activeElement).to.equal(part(el, 'message'));
    // The poll interval is a minute here: only the connection coming back asks again. The drop-in
    // listens for it once the read before has been answered, so the test says it until heard.
    await backOnlineUntil(() => shop.count('GET /order') === 2);
    await el.updateComplete;
    expect(el.status).to.equal('checking');
    expect(actions(el)).to.deep.equal(none);
    await backOnlineUntil(() => el.status === 'approved');
    await el.updateComplete;
    expect(message(el)).to.equal('Payment successful. Thank you! Reference: ref-77');
    expect(events).to.deep.equal(['pg-approved:']);
    expect(shop.count('POST /payments')).to.equal(1);
    expect(actions(el)).to.deep.equal({ pay: false, retry: false, methods: false });
  });

  it('asks again on a backoff while the order is still being checked, without the online event', async () => {
    const shop = fakeShop({
      'POST /payments': [json({ success: false, code: 'gateway_timeout', message: 'x' }, 504)],
      'GET /order': [
        json({ success: true, status: 'checking', message: 'x' }),
        json({ success: true, status: 'checking', message: 'x' }),
        json({ success: true, status: 'paid', payment: approved }),
      ],
    });
    restore = shop.restore;
    const el = await dropIn(shop.mount, 50);
    const events = record(el);
    await pay(el);
    await until(() => el.status === 'approved');
    expect(shop.count('GET /order')).to.equal(3);
    expect(events).to.deep.equal(['pg-approved:']);
  });

  it('an order that is still open proves nothing was charged: the failure stands, with Try again', async () => {
    const shop = fakeShop({
      'POST /payments': [lost],
      'GET /order': [json({ success: true, status: 'open' })],
    });
    restore = shop.restore;
    const el = await dropIn(shop.mount);
    const events = record(el);
    await pay(el);
    await until(() => el.status === 'failed');
    await el.updateComplete;
    expect(events).to.deep.equal(['pg-failed:network_error']);
    expect(actions(el)).to.deep.equal({ pay: false, retry: true, methods: false });
  });

  it('instant EFT on a paid order shows the paid result, not "already paid" as an error', async () => {
    const shop = fakeShop({
      'POST /eft': [json({ success: false, code: 'already_paid', message: 'x' }, 409)],
      'GET /order': [json({ success: true, status: 'paid', payment: approved })],
    });
    restore = shop.restore;
    const el = await dropIn(shop.mount);
    const events = record(el);
    part(el, 'methods')!.querySelector<HTMLButtonElement>('[data-method=eft]')!.click();
    await until(() => el.status === 'approved');
    await el.updateComplete;
    expect(message(el)).to.equal('Payment successful. Thank you! Reference: ref-77');
    expect(events).to.deep.equal(['pg-approved:']);
    expect(actions(el)).to.deep.equal(none);
  });

  it('order_changed is final: its message, pg-failed, and no Pay, Try again or other method', async () => {
    const changed = {
      success: false,
      status: 'failed',
      reference: 'ref-78',
      code: 'order_changed',
      message: 'raw server text',
    };
    const shop = fakeShop({ 'POST /payments': [json(changed, 409)] });
    restore = shop.restore;
    const el = await dropIn(shop.mount);
    const events = record(el);
    await pay(el);
    await until(() => el.status === 'failed');
    await el.updateComplete;
    expect(message(el)).to.match(/^Your order changed after it was paid/);
    expect(events).to.deep.equal(['pg-failed:order_changed']);
    expect(actions(el)).to.deep.equal(none);
  });

  it('a middleware that cannot tell (no order route) never says "not charged" and offers nothing to pay', async () => {
    const shop = fakeShop({ 'POST /payments': [lost] });
    restore = shop.restore;
    const el = await dropIn(shop.mount);
    await pay(el);
    await until(() => el.status === 'failed');
    await el.updateComplete;
    expect(message(el)).to.match(/^We could not confirm whether your payment went through/);
    expect(actions(el)).to.deep.equal(none);
  });

  it('a decline shows the reason, focused, and "Try another card" without Pay beside it', async () => {
    const declined = {
      success: false,
      status: 'declined',
      reference: 'ref-79',
      code: 'card_declined',
      message: 'x',
    };
    const shop = fakeShop({ 'POST /payments': [json(declined, 402)] });
    restore = shop.restore;
    const el = await dropIn(shop.mount);
    await pay(el);
    await until(() => el.status === 'declined');
    await el.updateComplete;
    expect(actions(el)).to.deep.equal({ pay: false, retry: true, methods: false });
    expect(el.shadowRoot!.activeElement).to.equal(part(el, 'message'));
    part(el, 'retry')!.click();
    await until(() => el.status === 'idle');
    expect(actions(el)).to.deep.equal({ pay: true, retry: false, methods: true });
  });

  describe('on a phone (375 px)', () => {
    before(() => setViewport({ width: 375, height: 667 }));
    after(() => setViewport({ width: 800, height: 600 }));

    it('the spinner stays beside the first line of "Checking whether…", not on a line of its own', async () => {
      const shop = fakeShop({
        'POST /payments': [lost],
        'GET /order': [json({ success: true, status: 'checking', message: 'x' })],
      });
      restore = shop.restore;
      const el = await dropIn(shop.mount);
      await pay(el);
      await until(() => el.status === 'checking');
      await el.updateComplete;
      const box = part(el, 'message')!;
      const spinner = box.querySelector('.spinner')!.getBoundingClientRect();
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      let text: Node | null = walker.nextNode();
      while (text && !/Checking whether/.test(text.textContent ?? '')) text = walker.nextNode();
      const range = document.createRange();
      range.selectNodeContents(text!);
      const lines = [...range.getClientRects()];
      expect(lines.length, 'the sentence wraps at this width').to.be.greaterThan(1);
      const first = lines[0]!;
      // Side by side: the first line starts right of the spinner, on the spinner's row.
      expect(first.left).to.be.at.least(spinner.right);
      expect(first.top).to.be.below(spinner.bottom);
      expect(first.bottom).to.be.above(spinner.top);
    });
  });
});
