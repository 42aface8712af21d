import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import type { ThreeDSV1Action } from '../api/types.js';
import { backend, createPayment, decide, record } from '../test-helpers/backend.js';
import './3ds-v1.js';
import type { Pg3dsV1 } from './3ds-v1.component.js';

async function authenticating(number: string) {
  const state = await createPayment(number);
  if (state.status !== 'authenticating' || state.threeDS.version !== 1)
    throw new Error(`expected v1, got ${JSON.stringify(state)}`);
  return { reference: state.reference, action: state.threeDS, clientSecret: state.clientSecret };
}

async function element() {
  const { endpoint } = await backend();
  return fixture<Pg3dsV1>(html`<pg-3ds-v1 endpoint=${endpoint}></pg-3ds-v1>`);
}

describe('<pg-3ds-v1>', () => {
  it('posts PaReq, MD and TermUrl into the frame and reads the result after the TermUrl page', async () => {
    const el = await element();
    el.pollInterval = 60_000;
    const { reference, action, clientSecret } = await authenticating('4000000000003097');
    const start = oneEvent(el, 'pg-threeds-start');
    const done = el.start(reference, action as ThreeDSV1Action, clientSecret);
    expect((await start).detail).to.deep.equal({ reference, version: 1, step: 'challenge' });
    const result = await done;
    expect(result.status).to.equal('approved');
    const rec = await record(reference);
    expect(rec.acsForm).to.deep.equal({
      PaReq: action.paReq,
      MD: action.md,
      TermUrl: action.termUrl,
    });
    expect(rec.reads).to.equal(1);
    expect(el.shadowRoot!.querySelectorAll('iframe, form').length).to.equal(0);
  });

  it('adds no history entry when posting into the frame', async () => {
    const el = await element();
    const before = history.length;
    const { reference, action, clientSecret } = await authenticating('4000000000003097');
    await el.start(reference, action, clientSecret);
    // Firefox even drops the removed frame's entries; what matters is that none was added.
    expect(history.length).to.be.at.most(before);
  });

  it('cancel, timeout and a second flow', async () => {
    const el = await element();
    const held = await authenticating('4000000000000028');
    const first = el.start(held.reference, held.action, held.clientSecret);
    await oneEvent(el, 'pg-threeds-start');
    await expect(el).to.be.accessible();
    const cancel = el.shadowRoot!.querySelector<HTMLButtonElement>('[part=cancel]')!;
    expect(cancel.getAttribute('aria-label')).to.equal('Cancel the bank check');
    cancel.click();
    const cancelled = await first;
    expect(cancelled.success === false && cancelled.code).to.equal('authentication_cancelled');
    el.challengeTimeout = 200;
    const again = await authenticating('4000000000000028');
    const timedOut = await el.start(again.reference, again.action, again.clientSecret);
    expect(timedOut.success === false && timedOut.code).to.equal('authentication_timeout');
    el.challengeTimeout = 600_000;
    const ok = await authenticating('4000000000003097');
    expect((await el.start(ok.reference, ok.action, ok.clientSecret)).status).to.equal('approved');
    expect(el.shadowRoot!.querySelectorAll('iframe').length).to.equal(0);
  });

  it('a new start ends the running flow first', async () => {
    const el = await element();
    const held = await authenticating('4000000000000028');
    const first = el.start(held.reference, held.action, held.clientSecret);
    await oneEvent(el, 'pg-threeds-start');
    const firstFrame = el.shadowRoot!.querySelector('iframe');
    const ok = await authenticating('4000000000003097');
    const secondStarted = oneEvent(el, 'pg-threeds-start');
    const second = el.start(ok.reference, ok.action, ok.clientSecret);
    await secondStarted;
    // a fresh frame per attempt: the held bank page is gone, nothing posts into it again
    expect(el.shadowRoot!.querySelector('iframe')).not.to.equal(firstFrame);
    expect(firstFrame!.isConnected).to.equal(false);
    const firstResult = await first;
    expect(firstResult.success === false && firstResult.code).to.equal('aborted');
    expect((await second).status).to.equal('approved');
  });

  it('speaks Afrikaans when asked', async () => {
    const { endpoint } = await backend();
    const el = await fixture<Pg3dsV1>(
      html`<pg-3ds-v1 endpoint=${endpoint} locale="af"></pg-3ds-v1>`,
    );
    const held = await authenticating('4000000000000028');
    const done = el.start(held.reference, held.action, held.clientSecret);
    await oneEvent(el, 'pg-threeds-start');
    expect(el.shadowRoot!.querySelector('[part=cancel]')!.getAttribute('aria-label')).to.equal(
      'Kanselleer die bankkontrole',
    );
    expect(el.shadowRoot!.querySelector('iframe[part=frame]')!.getAttribute('title')).to.equal(
      'Bevestig dat dit jy is',
    );
    el.cancel();
    const result = await done;
    expect(result.success === false && result.message).to.contain('gekanselleer');
  });

  it("takes the TermUrl page's word from the action's callbackOrigin, another origin than the endpoint", async () => {
    const { publicUrl } = await backend();
    const el = await element();
    el.pollInterval = 60_000;
    el.challengeTimeout = 10_000;
    const { reference, action, clientSecret } = await authenticating('4000000000000044');
    expect(action.callbackOrigin).to.equal(publicUrl);
    expect(new URL(action.termUrl).origin).to.equal(publicUrl);
    expect((await el.start(reference, action, clientSecret)).status).to.equal('approved');
    expect((await record(reference)).reads).to.equal(1);
  });

  it('learns the outcome by polling when the bank page never returns', async () => {
    const el = await element();
    el.pollInterval = 100;
    const held = await authenticating('4000000000000028');
    const done = el.start(held.reference, held.action, held.clientSecret);
    await oneEvent(el, 'pg-threeds-start');
    await decide(held.reference, 'decline');
    const result = await done;
    expect(result.status).to.equal('declined');
    expect(result.success === false && result.message).to.equal(
      'Your card was declined. Try another card.',
    );
    expect(el.shadowRoot!.querySelectorAll('iframe').length).to.equal(0);
  });
});
