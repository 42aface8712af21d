import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import type { ThreeDSV2Action } from '../api/types.js';
import { warnAhead } from './challenge-deadline.js';
import { backend, createPayment, until } from '../test-helpers/backend.js';
import { fillCard } from '../test-helpers/input.js';
import '../checkout/checkout.js';
import type { PgCheckout } from '../checkout/checkout.component.js';
import type { PgCardForm } from '../card-form/card-form.component.js';
import './3ds-v2.js';
import type { Pg3dsV2 } from './3ds-v2.component.js';

// WCAG 2.2.1: the shopper is told before the challenge times out, and can ask for more time.
describe('<pg-3ds-v2> before a challenge times out', () => {
  it('warns a fifth of the time ahead, 20 s at least', () => {
    expect(warnAhead(600_000)).to.equal(120_000);
    expect(warnAhead(60_000)).to.equal(20_000);
    expect(warnAhead(10_000)).to.equal(10_000);
  });

  it('says how long is left in a live region that was there all along, and "More time" starts the time again', async () => {
    const { endpoint } = await backend();
    const wrapper = await fixture<HTMLDivElement>(
      html`<div style="width:480px">
        <pg-3ds-v2 endpoint=${endpoint} method-timeout="100" challenge-timeout="1500"></pg-3ds-v2>
      </div>`,
    );
    const el = wrapper.querySelector('pg-3ds-v2') as Pg3dsV2;
    const state = await createPayment('4000000000000010'); // the mock bank holds: no answer comes
    if (state.status !== 'authenticating') throw new Error(JSON.stringify(state));
    let ended = false;
    const done = el
      .start(state.reference, state.threeDS as ThreeDSV2Action, state.clientSecret)
      .then((result) => ((ended = true), result));
    await until(() => el.shadowRoot!.querySelector('iframe[part=frame]') !== null, 10_000);
    const region = el.shadowRoot!.querySelector('[role=status]')!;
    expect(region, 'the live region is there before the warning').not.to.equal(null);
    expect(el.shadowRoot!.querySelectorAll('[role=status]').length).to.equal(1);
    await until(() => /ends in 2 seconds/.test(region.textContent ?? ''));
    expect(el.shadowRoot!.querySelector('[role=status]')).to.equal(region);
    expect(region.getBoundingClientRect().height, 'the warning shows').to.be.above(1);
    await new Promise((r) => setTimeout(r, 800));
    const more = el.shadowRoot!.querySelector<HTMLButtonElement>('[part=more-time]')!;
    expect(more.textContent!.trim()).to.equal('More time');
    more.click();
    await el.updateComplete;
    expect(region.textContent!.trim(), 'the warning goes with the extension').not.to.match(
      /ends in/,
    );
    // 1.5 s after the challenge opened it would have ended; with more time it runs on.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(ended, 'still open after its first 1.5 s').to.equal(false);
    const result = await done;
    expect(result.success === false && result.code).to.equal('authentication_timeout');
  });

  it('has no warning while there is time', async () => {
    const { endpoint } = await backend();
    const el = await fixture<Pg3dsV2>(
      html`<pg-3ds-v2 endpoint=${endpoint} method-timeout="100"></pg-3ds-v2>`,
    );
    const state = await createPayment('4000000000000010');
    if (state.status !== 'authenticating') throw new Error(JSON.stringify(state));
    const started = oneEvent(el, 'pg-threeds-start');
    void el.start(state.reference, state.threeDS as ThreeDSV2Action, state.clientSecret);
    await started;
    await until(() => el.shadowRoot!.querySelector('iframe[part=frame]') !== null, 10_000);
    expect(el.shadowRoot!.querySelector('[role=status]')!.textContent).not.to.match(/ends in/);
    expect(el.shadowRoot!.querySelector('[part=more-time]')).to.equal(null);
    el.cancel();
  });

  it('inside the drop-in, the warning and "More time" show beside the close control', async () => {
    const { endpoint } = await backend();
    const el = await fixture<PgCheckout>(
      html`<pg-checkout
        endpoint=${endpoint}
        method-timeout="100"
        challenge-timeout="1500"
      ></pg-checkout>`,
    );
    const form = () => el.shadowRoot!.querySelector('pg-card-form') as PgCardForm;
    await until(() => /\d/.test(form()?.shadowRoot?.querySelector('button')?.textContent ?? ''));
    await fillCard(form(), '4000000000000010');
    form().submit();
    const v2 = () => el.shadowRoot!.querySelector('pg-3ds-v2')?.shadowRoot;
    await until(
      () => /ends in/.test(v2()?.querySelector('.timeout [role=status]')?.textContent ?? ''),
      10_000,
    );
    expect(v2()!.querySelector('[part=more-time]')).not.to.equal(null);
    await until(() => el.status === 'failed', 10_000);
  });
});
