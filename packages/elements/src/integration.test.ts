import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { PgCardForm } from './card-form/card-form.component.js';
import type { PgCheckout } from './checkout/checkout.component.js';
import './checkout/checkout.js';
import { backend, until as untilWithin } from './test-helpers/backend.js';
import { field, fillCard } from './test-helpers/input.js';

/** Against the real middleware and sandbox, conditions get 15 s by default. */
const until = (check: () => boolean, ms = 15000) => untilWithin(check, ms);

// The drop-in against the real middleware (@pg-checkout/express) and the gateway sandbox.

async function dropIn(methodTimeout = 3000) {
  const { real } = (await backend()) as unknown as { real: { endpoint?: string; error?: string } };
  if (!real.endpoint) throw new Error(`real backend not running: ${real.error}`);
  const el = await fixture<PgCheckout>(
    html`<pg-checkout endpoint=${real.endpoint} method-timeout=${methodTimeout}></pg-checkout>`,
  );
  await until(() =>
    /123/.test(form(el)?.shadowRoot?.querySelector('button[type=submit]')?.textContent ?? ''),
  );
  return el;
}

const form = (el: PgCheckout) => el.shadowRoot!.querySelector('pg-card-form') as PgCardForm;

async function pay(el: PgCheckout, number: string, cvv = '123') {
  const f = form(el);
  await fillCard(f, number, cvv);
  f.submit();
}

const settled = (el: PgCheckout) =>
  until(() => ['approved', 'declined', 'failed', 'pending'].includes(el.status), 30000);

async function sandboxRecord(reference: string) {
  return (await fetch(`/_sandbox/transactions/${reference}`)).json();
}

describe('with @pg-checkout/express and the sandbox', () => {
  it('approves a visa, mastercard, amex and diners test card', async () => {
    for (const [number, cvv] of [
      ['4111111111111111', '123'],
      ['2223003122003222', '123'],
      ['378282246310005', '1234'],
      ['30569309025904', '123'],
    ]) {
      const el = await dropIn();
      await pay(el, number!, cvv);
      await settled(el);
      expect(el.status, number).to.equal('approved');
    }
  });

  it('declines a declined card and takes another card after it', async () => {
    const el = await dropIn();
    await pay(el, '4000000000000002');
    await settled(el);
    expect(el.status).to.equal('declined');
    await until(() => field(form(el), 'number').value === '');
    await pay(el, '4111111111111111');
    await until(() => el.status === 'approved');
  });

  it('3-D Secure v2: the method form reaches the bank, Step 2 confirm 3 s after, frictionless approval', async () => {
    const el = await dropIn();
    let reference = '';
    el.addEventListener('pg-threeds-start', (e) => (reference = e.detail.reference));
    await pay(el, '4000000000003220');
    await settled(el);
    expect(el.status).to.equal('approved');
    const record = await sandboxRecord(reference);
    expect(record.threeDS.methodReceivedAt).to.be.a('number');
    const gap = record.threeDS.step2ConfirmAt - record.threeDS.methodReceivedAt;
    expect(gap).to.be.within(3000, 3500);
  });

  it('3-D Secure v2 challenge: the shopper types the code in the bank frame', async () => {
    const el = await dropIn(300);
    await pay(el, '4000000000003063');
    await until(() => el.status === 'authenticating');
    await executeServerCommand('pg-acs', { otp: '1234', button: 'submit' });
    await settled(el);
    expect(el.status).to.equal('approved');
  });

  it('3-D Secure v2 challenge moved mid-way (appendChild elsewhere): the sandbox bank takes the posted-again creq', async () => {
    const el = await dropIn(300);
    const elsewhere = document.createElement('div');
    el.parentElement!.after(elsewhere);
    const failed: string[] = [];
    el.addEventListener('pg-failed', (e) => failed.push(e.detail.code));
    await pay(el, '4000000000003063');
    const frame = () =>
      el
        .shadowRoot!.querySelector('pg-3ds-v2')
        ?.shadowRoot?.querySelector<HTMLIFrameElement>('iframe[part=frame]');
    await until(() => frame() != null);
    const first = frame()!.name;
    // The bank's page is up before the move: its one-time code field is what a move would lose.
    await until(() => {
      try {
        return frame()!.contentWindow!.location.href !== 'about:blank';
      } catch {
        return true; // cross-origin: the bank's page is there
      }
    });
    elsewhere.appendChild(el);
    await until(() => frame() != null && frame()!.name !== first);
    await executeServerCommand('pg-acs', { otp: '1234', button: 'submit' });
    await settled(el);
    expect(el.status).to.equal('approved');
    expect(failed).to.deep.equal([]);
    elsewhere.remove();
  });

  it('3-D Secure v2 challenge cancelled at the bank ends failed (authentication), with a shopper message', async () => {
    const el = await dropIn(300);
    await pay(el, '4000000000003063');
    await until(() => el.status === 'authenticating');
    await executeServerCommand('pg-acs', { button: 'cancel' });
    await settled(el);
    expect(el.status).to.equal('failed');
    expect(el.shadowRoot!.querySelector('[part=message]')!.textContent).to.match(/verify/);
  });

  it('3-D Secure v1 through the same completion', async () => {
    const el = await dropIn();
    await pay(el, '4000000000003097');
    await until(() => el.status === 'authenticating');
    await executeServerCommand('pg-acs', { otp: '1234', button: 'submit' });
    await settled(el);
    expect(el.status).to.equal('approved');
  });
});
