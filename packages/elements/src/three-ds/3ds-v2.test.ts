import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import type { ThreeDSV2Action } from '../api/types.js';
import { en } from '../i18n/en.js';
import { backend, createPayment, decide, record, until } from '../test-helpers/backend.js';
import { trackMessageListeners } from '../test-helpers/listeners.js';
import './3ds-v2.js';
import type { Pg3dsV2 } from './3ds-v2.component.js';
import { pickChallengeWindow } from './window-size.js';

async function authenticating(number: string) {
  const state = await createPayment(number);
  if (state.status !== 'authenticating' || state.threeDS.version !== 2)
    throw new Error(`expected v2, got ${JSON.stringify(state)}`);
  return {
    reference: state.reference,
    action: state.threeDS as ThreeDSV2Action,
    clientSecret: state.clientSecret,
  };
}

async function element(width = 480, attrs = '') {
  const { endpoint } = await backend();
  const wrapper = await fixture<HTMLDivElement>(
    html`<div style="width:${width}px">
      <pg-3ds-v2 endpoint=${endpoint} method-timeout="300" ${attrs}></pg-3ds-v2>
    </div>`,
  );
  return wrapper.querySelector('pg-3ds-v2') as Pg3dsV2;
}

const frames = (el: Pg3dsV2) => el.shadowRoot!.querySelectorAll('iframe');
const challengeFrame = (el: Pg3dsV2) =>
  el.shadowRoot!.querySelector<HTMLIFrameElement>('iframe[part=frame]');

describe('<pg-3ds-v2>', () => {
  it('runs the method step from methodUrl, confirms method-timeout ms after load, then the challenge', async () => {
    const el = await element();
    const { reference, action, clientSecret } = await authenticating('4000000000003063');
    const starts: string[] = [];
    el.addEventListener('pg-threeds-start', (e) => starts.push(e.detail.step));
    const done = el.start(reference, action, clientSecret);
    await el.updateComplete;
    const method = el.shadowRoot!.querySelector<HTMLIFrameElement>('iframe[part=method-frame]')!;
    expect(method.getAttribute('src')).to.equal(action.step === 'method' ? action.methodUrl : '');
    expect(method.getAttribute('aria-hidden')).to.equal('true');
    expect(el.shadowRoot!.querySelector('[part=status]')!.textContent!.trim()).to.equal(
      'Checking with your bank…',
    );
    const result = await done;
    expect(result.status).to.equal('approved');
    expect(starts).to.deep.equal(['method', 'challenge']);
    const rec = await record(reference);
    expect(rec.methodReceivedAt).to.be.a('number');
    expect((rec.step2ConfirmAt as number) - (rec.methodServedAt as number)).to.be.at.least(300);
    expect((rec.acsForm as Record<string, string>).threeDSSessionData).to.be.a('string');
    expect(frames(el).length).to.equal(0);
  });

  it('waits 3 s by default before Step 2 confirm, and a frictionless card is approved', async () => {
    const { endpoint } = await backend();
    const el = await fixture<Pg3dsV2>(html`<pg-3ds-v2 endpoint=${endpoint}></pg-3ds-v2>`);
    expect(el.methodTimeout).to.equal(3000);
    const { reference, action, clientSecret } = await authenticating('4000000000003220');
    const started = Date.now();
    const result = await el.start(reference, action, clientSecret);
    expect(Date.now() - started).to.be.at.least(3000);
    expect(result.status).to.equal('approved');
    const rec = await record(reference);
    expect((rec.step2ConfirmAt as number) - (rec.methodReceivedAt as number)).to.be.at.least(2500);
  });

  it('falls back to srcdoc when there is no methodUrl', async () => {
    const el = await element();
    const { reference, action, clientSecret } = await authenticating('4000000000003220');
    const done = el.start(reference, { ...action, methodUrl: '' } as ThreeDSV2Action, clientSecret);
    await el.updateComplete;
    const method = el.shadowRoot!.querySelector<HTMLIFrameElement>('iframe[part=method-frame]')!;
    expect(method.hasAttribute('src')).to.equal(false);
    expect(method.srcdoc).to.contain('threeDSMethodData');
    expect((await done).status).to.equal('approved');
    expect((await record(reference)).methodReceivedAt).to.be.a('number');
  });

  it('a failed authentication at Step 2 confirm ends declined without a challenge', async () => {
    const el = await element();
    const { reference, action, clientSecret } = await authenticating('4000000000000127');
    const result = await el.start(reference, action, clientSecret);
    expect(result.status).to.equal('declined');
    expect(result.success === false && result.code).to.equal('authentication_failed');
  });

  it('posts creq and threeDSSessionData into a sized, focused, announced challenge frame', async () => {
    const el = await element(480);
    const { reference, action, clientSecret } = await authenticating('4000000000000010');
    expect(action.step).to.equal('challenge');
    const started = oneEvent(el, 'pg-threeds-start');
    const done = el.start(reference, action, clientSecret);
    await started;
    const frame = challengeFrame(el)!;
    expect(frame.hasAttribute('src')).to.equal(false);
    // Sized by attributes, not inline style, so a strict style-src CSP does not block it.
    expect(frame.getAttribute('width')).to.equal('390');
    expect(frame.getAttribute('height')).to.equal('400');
    expect(frame.hasAttribute('style')).to.equal(false);
    expect(
      el.shadowRoot!.querySelector('[part=challenge]')!.getAttribute('data-window-size'),
    ).to.equal('02');
    // Focus goes in once the bank's page has loaded, not before (the page would never get it).
    await until(() => el.shadowRoot!.activeElement === frame, 5000);
    const region = el.shadowRoot!.querySelector('[role=status]')!;
    expect(region.textContent).to.contain('Your bank needs to confirm');
    expect(el.shadowRoot!.querySelectorAll('[role=status]').length).to.equal(1);
    let rec: Record<string, unknown> = {};
    for (let i = 0; i < 50 && !rec.acsForm; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      rec = await record(reference);
    }
    expect(rec.acsForm).to.deep.equal(
      action.step === 'challenge'
        ? { creq: action.creq, threeDSSessionData: action.threeDSSessionData }
        : {},
    );
    await expect(el).to.be.accessible();
    el.cancel();
    const result = await done;
    expect(result.status).to.equal('failed');
    expect(result.success === false && result.code).to.equal('authentication_cancelled');
    expect(result.success === false && result.message).to.equal(
      'The bank check was cancelled. No payment was made.',
    );
    expect(frames(el).length).to.equal(0);
  });

  it('picks the EMV window size from the container width', async () => {
    for (const [width, code, frameWidth] of [
      [700, '04', '600'],
      [420, '02', '390'],
      // A phone: the whole width rather than 250 px that cuts the bank's page off.
      [343, '05', '100%'],
      [200, '05', '100%'],
    ] as const) {
      const el = await element(width);
      const { reference, action, clientSecret } = await authenticating('4000000000000010');
      const done = el.start(reference, action, clientSecret);
      await oneEvent(el, 'pg-threeds-start');
      expect(
        el.shadowRoot!.querySelector('[part=challenge]')!.getAttribute('data-window-size'),
        String(width),
      ).to.equal(code);
      expect(challengeFrame(el)!.getAttribute('width')).to.equal(frameWidth);
      expect(challengeFrame(el)!.getBoundingClientRect().width).to.be.at.most(width);
      el.cancel();
      await done;
    }
  });

  it('picks the EMV window from the height there is too', () => {
    expect(pickChallengeWindow(520, 800).code).to.equal('03');
    expect(pickChallengeWindow(520, 600).code).to.equal('02');
    expect(pickChallengeWindow(640, 800).code).to.equal('04');
    expect(pickChallengeWindow(375, 740).code).to.equal('05');
    expect(pickChallengeWindow(390, 480).code).to.equal('05');
  });

  it('ignores completion messages from another origin, another frame or another payment', async () => {
    const { url } = await backend();
    const el = await element();
    // Only a message could end this challenge quickly; the poll would come long after the test.
    el.pollInterval = 60_000;
    const tracker = trackMessageListeners();
    try {
      const { reference, action, clientSecret } = await authenticating('4000000000000010');
      const done = el.start(reference, action, clientSecret);
      await oneEvent(el, 'pg-threeds-start');
      let settled = false;
      void done.then(() => (settled = true));
      // right shape, wrong origin (this page)
      window.postMessage({ source: 'pg-checkout', type: '3ds-complete', reference }, '*');
      // right origin, wrong frame
      const impostor = document.createElement('iframe');
      const loaded = new Promise((resolve) =>
        impostor.addEventListener('load', resolve, { once: true }),
      );
      impostor.src = `${url}/_test/post?reference=${reference}&target=${encodeURIComponent(location.origin)}`;
      document.body.append(impostor);
      await loaded;
      await new Promise((resolve) => setTimeout(resolve, 100));
      impostor.remove();
      expect(settled).to.equal(false);
      expect(challengeFrame(el)).not.to.equal(null);
      expect((await record(reference)).reads ?? 0).to.equal(0);
      el.cancel();
      await done;
      expect(tracker.leftBehind()).to.equal(0);
    } finally {
      tracker.restore();
    }
  });

  it('ends a silent challenge after challenge-timeout with a clear failure', async () => {
    const el = await element(480, '');
    el.challengeTimeout = 300;
    const { reference, action, clientSecret } = await authenticating('4000000000000010');
    const result = await el.start(reference, action, clientSecret);
    expect(result.success === false && result.code).to.equal('authentication_timeout');
    expect(result.success === false && result.message).to.contain('took too long');
    expect(frames(el).length).to.equal(0);
  });

  it('completes through the callback page and reads the authoritative state', async () => {
    const el = await element();
    el.pollInterval = 60_000;
    const { reference, action, clientSecret } = await authenticating('4000000000000119');
    const complete = oneEvent(el, 'pg-threeds-complete');
    const result = await el.start(reference, action, clientSecret);
    expect(result.status).to.equal('declined');
    expect((await complete).detail).to.deep.equal({
      reference,
      status: 'declined',
      code: 'card_declined',
    });
    expect((await record(reference)).reads).to.equal(1);
  });

  it('cleans up when removed mid-challenge without ending the flow; a second flow supersedes it', async () => {
    const el = await element();
    const parent = el.parentElement!;
    const first = await authenticating('4000000000000010');
    const done = el.start(first.reference, first.action, first.clientSecret);
    await oneEvent(el, 'pg-threeds-start');
    el.remove();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(frames(el).length).to.equal(0);
    parent.append(el);
    const second = await authenticating('4000000000003055');
    const secondDone = el.start(second.reference, second.action, second.clientSecret);
    const result = await done;
    expect(result.success === false && result.code).to.equal('aborted');
    expect((await secondDone).status).to.equal('approved');
    expect(frames(el).length).to.equal(0);
  });

  it('works inside a modal dialog, rendered in its own tree', async () => {
    const { endpoint } = await backend();
    const dialog = await fixture<HTMLDialogElement>(
      html`<dialog><pg-3ds-v2 endpoint=${endpoint}></pg-3ds-v2></dialog>`,
    );
    dialog.showModal();
    const el = dialog.querySelector('pg-3ds-v2') as Pg3dsV2;
    const { reference, action, clientSecret } = await authenticating('4000000000000010');
    const done = el.start(reference, action, clientSecret);
    await oneEvent(el, 'pg-threeds-start');
    const frame = challengeFrame(el)!;
    expect(frame.checkVisibility()).to.equal(true);
    const box = frame.getBoundingClientRect();
    const topmost = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    expect(topmost).to.equal(el);
    el.cancel();
    await done;
    dialog.close();
  });

  it('refuses to start without an endpoint', async () => {
    const el = await fixture<Pg3dsV2>(html`<pg-3ds-v2></pg-3ds-v2>`);
    expect(() =>
      el.start('ref', {
        version: 2,
        step: 'challenge',
        acsUrl: 'https://acs.test',
        creq: 'x',
        threeDSSessionData: 'y',
        transactionId: 't',
        callbackOrigin: 'https://shop.test',
      }),
    ).to.throw(TypeError, /endpoint/);
  });

  it('proves ownership with the client secret on Step 2 confirm and the status read', async () => {
    const el = await element();
    el.pollInterval = 60_000;
    const { reference, action, clientSecret } = await authenticating('4000000000003063');
    expect(clientSecret).to.match(/^[\w-]{43}$/);
    expect((await el.start(reference, action, clientSecret)).status).to.equal('approved');
    const rec = await record(reference);
    expect(rec.deniedRequests ?? 0).to.equal(0);
    expect(rec.step2ConfirmAt).to.be.a('number');
    expect(rec.reads).to.equal(1);
  });

  it('without the secret the middleware does not know the payment: failed, with a readable message', async () => {
    const el = await element();
    const { reference, action } = await authenticating('4000000000003063');
    const result = await el.start(reference, action);
    expect(result.status).to.equal('failed');
    expect(result.success === false && result.code).to.equal('not_found');
    expect(result.success === false && result.message).to.equal(en.notFound);
    expect((await record(reference)).deniedRequests).to.equal(1);
    expect(frames(el).length).to.equal(0);
  });

  it("accepts the completion page from the action's callbackOrigin, another origin than the endpoint", async () => {
    const { endpoint, publicUrl } = await backend();
    const el = await element();
    el.pollInterval = 60_000;
    el.challengeTimeout = 10_000;
    const { reference, action, clientSecret } = await authenticating('4000000000000036');
    expect(action.step === 'challenge' && action.callbackOrigin).to.equal(publicUrl);
    expect(publicUrl).not.to.equal(new URL(endpoint).origin);
    const result = await el.start(reference, action, clientSecret);
    expect(result.status).to.equal('approved');
    expect((await record(reference)).reads).to.equal(1);
  });

  it('ignores a completion page from its own frame on an origin the action did not name', async () => {
    const el = await element();
    el.pollInterval = 60_000;
    const { reference, action, clientSecret } = await authenticating('4000000000000051');
    let settled = false;
    const done = el.start(reference, action, clientSecret);
    void done.then(() => (settled = true));
    let rec: Record<string, unknown> = {};
    for (let i = 0; i < 100 && typeof rec.completionServedAt !== 'number'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      rec = await record(reference);
    }
    expect(rec.completionServedAt, 'the completion page was served').to.be.a('number');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).to.equal(false);
    expect((await record(reference)).reads ?? 0).to.equal(0);
    el.cancel();
    expect((await done).status).to.equal('failed');
  });

  it('polling alone ends a challenge whose page never speaks, with whatever the gateway decided', async () => {
    for (const [outcome, status] of [
      ['approve', 'approved'],
      ['decline', 'declined'],
      ['pending', 'pending'],
    ] as const) {
      const el = await element();
      el.pollInterval = 100;
      const { reference, action, clientSecret } = await authenticating('4000000000000010');
      const done = el.start(reference, action, clientSecret);
      await oneEvent(el, 'pg-threeds-start');
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(challengeFrame(el), 'still open while undecided').not.to.equal(null);
      await decide(reference, outcome);
      const started = Date.now();
      const result = await done;
      expect(result.status, outcome).to.equal(status);
      expect(Date.now() - started).to.be.below(1500);
      expect(frames(el).length).to.equal(0);
    }
  });

  it('a 404 from the status read ends a challenge as failed, with a readable message', async () => {
    const el = await element();
    el.pollInterval = 100;
    const { reference, action } = await authenticating('4000000000000010');
    const result = await el.start(reference, action);
    expect(result.success === false && result.code).to.equal('not_found');
    expect(result.success === false && result.message).to.equal(en.notFound);
    expect((await record(reference)).deniedRequests).to.be.at.least(1);
  });

  it('a completion page the gateway has not decided on keeps the challenge open until it times out', async () => {
    // The middleware may have kept the bank's proof to send again: only the gateway's decision, or
    // the challenge timeout, ends the flow; a shopper is never told "failed" on a page's word.
    const el = await element();
    el.pollInterval = 100;
    el.challengeTimeout = 1_500;
    const { reference, action, clientSecret } = await authenticating('4000000000000069');
    const started = Date.now();
    const result = await el.start(reference, action, clientSecret);
    expect(result.success === false && result.code).to.equal('authentication_timeout');
    expect(Date.now() - started).to.be.at.least(1_400);
  });

  it('a listener left from an earlier flow cannot end a later one', async () => {
    const { url } = await backend();
    const el = await element();
    el.pollInterval = 60_000;
    const tracker = trackMessageListeners();
    try {
      const ended: string[] = [];
      el.addEventListener('pg-threeds-complete', (e) => ended.push(e.detail.reference));
      const first = await authenticating('4000000000000010');
      const firstDone = el.start(first.reference, first.action, first.clientSecret);
      await oneEvent(el, 'pg-threeds-start');
      const second = await authenticating('4000000000000010');
      const secondStarted = oneEvent(el, 'pg-threeds-start');
      const secondDone = el.start(second.reference, second.action, second.clientSecret);
      await secondStarted;
      const firstResult = await firstDone;
      expect(firstResult.success === false && firstResult.code).to.equal('aborted');
      expect(tracker.leftBehind()).to.equal(1);
      let settled = false;
      void secondDone.then(() => (settled = true));
      // The earlier payment is decided, and the current frame says so: nothing may listen for it now.
      await decide(first.reference);
      const post = async (reference: string) => {
        const frame = challengeFrame(el)!;
        const loaded = new Promise((resolve) =>
          frame.addEventListener('load', resolve, { once: true }),
        );
        frame.src = `${url}/_test/post?reference=${reference}&target=${encodeURIComponent(location.origin)}`;
        await loaded;
      };
      await post(first.reference);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(settled).to.equal(false);
      expect((await record(first.reference)).reads ?? 0).to.equal(0);
      expect(ended).to.deep.equal([first.reference]);
      // The later flow's own completion still counts.
      await decide(second.reference);
      await post(second.reference);
      expect((await secondDone).status).to.equal('approved');
      expect(ended).to.deep.equal([first.reference, second.reference]);
      expect((await record(second.reference)).reads).to.equal(1);
      expect(tracker.leftBehind()).to.equal(0);
    } finally {
      tracker.restore();
    }
  });
});
