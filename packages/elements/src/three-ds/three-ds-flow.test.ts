import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import type { PaymentState, ThreeDSV1Action } from '../api/types.js';
import { en } from '../i18n/en.js';
import type { Messages } from '../i18n/localize.js';
import { HandClock } from '../test-helpers/clock.js';
import { ThreeDSFlowController, type ThreeDSApi } from './three-ds-flow.js';
import { renderThreeDS } from './three-ds-view.js';

const action: ThreeDSV1Action = {
  version: 1,
  acsUrl: 'about:blank',
  paReq: 'pareq',
  md: 'md',
  termUrl: 'about:blank',
  callbackOrigin: location.origin,
};
const waiting: PaymentState = {
  success: true,
  status: 'authenticating',
  reference: 'r1',
  threeDS: action,
};
const approved: PaymentState = { success: true, status: 'approved', reference: 'r1', message: 'x' };
const cancelled: PaymentState = {
  success: false,
  status: 'failed',
  reference: 'r1',
  code: 'authentication_cancelled',
  message: 'raw middleware text',
};

/** A middleware that answers status reads and cancels from lists (the last answer repeats). */
function middleware(reads: PaymentState[], cancels: PaymentState[] = [cancelled]) {
  const calls = { reads: 0, cancels: 0 };
  const next = (list: PaymentState[], n: number) => list[Math.min(n, list.length - 1)]!;
  const api: ThreeDSApi = {
    origin: location.origin,
    payment: async () => next(reads, calls.reads++),
    cancelPayment: async () => next(cancels, calls.cancels++),
    confirmMethodAt: async () => approved,
    rememberSecret: () => {},
  };
  return { api, calls };
}

/** The smallest host a flow needs: the properties it reads and its view. */
class FlowHost extends LitElement {
  endpoint = '';
  challengeTimeout = 100_000;
  pollInterval = 2_000;
  locale = 'en';
  messages: Partial<Messages> = {};
  clock = new HandClock();
  backend = middleware([waiting]);
  flow = new ThreeDSFlowController(this, {
    version: 1,
    clock: this.clock,
    api: () => this.backend.api,
  });

  override render() {
    return renderThreeDS(this.flow);
  }
}
customElements.define('three-ds-flow-host', FlowHost);

async function open(backend: ReturnType<typeof middleware>) {
  const host = await fixture<FlowHost>(html`<three-ds-flow-host></three-ds-flow-host>`);
  host.backend = backend;
  const events: string[] = [];
  for (const type of ['pg-threeds-start', 'pg-threeds-checking', 'pg-threeds-complete'])
    host.addEventListener(type, () => events.push(type));
  const result = host.flow.start('r1', action);
  await host.clock.tick(0);
  const frame = () => host.shadowRoot!.querySelector('iframe[part=frame]');
  expect(frame(), 'the challenge frame is open').not.to.equal(null);
  return { host, result, events, frame, clock: host.clock, calls: backend.calls };
}

describe('ThreeDSFlowController', () => {
  it('reads the status every poll interval until the gateway decides, then leaves no timer', async () => {
    const { host, result, events, frame, clock, calls } = await open(
      middleware([waiting, waiting, approved]),
    );
    await clock.tick(1_999);
    expect(calls.reads, 'no read before the first interval').to.equal(0);
    await clock.tick(1);
    expect(calls.reads).to.equal(1);
    expect(host.flow.active).to.equal(true);
    await clock.tick(4_000);
    const state = await result;
    expect(calls.reads).to.equal(3);
    expect(state.status).to.equal('approved');
    expect(state.message, 'the localized sentence').to.equal(en.approved);
    expect(events).to.deep.equal(['pg-threeds-start', 'pg-threeds-complete']);
    expect(host.flow.active).to.equal(false);
    await host.updateComplete;
    expect(frame()).to.equal(null);
    expect(clock.pending, 'polls and the time limit are gone').to.equal(0);
  });

  it('warns before the time is up, then ends the challenge as authentication_timeout', async () => {
    const { host, result, events, clock, calls } = await open(middleware([waiting]));
    const root = host.shadowRoot!;
    await clock.tick(79_999);
    expect(host.flow.frame.timeoutWarning).to.equal(0);
    expect(root.querySelector('[part=more-time]')).to.equal(null);
    await clock.tick(1);
    expect(host.flow.frame.timeoutWarning, 'warned 20 s ahead').to.equal(20);
    expect(root.querySelector('[part=status]')!.textContent).to.contain('20');
    expect(root.querySelector('[part=more-time]')).not.to.equal(null);
    await clock.tick(20_000);
    const state = await result;
    expect(events).to.deep.equal([
      'pg-threeds-start',
      'pg-threeds-checking',
      'pg-threeds-complete',
    ]);
    expect(calls.cancels, 'the middleware was asked to end it').to.equal(1);
    expect(state.success === false && state.code).to.equal('authentication_timeout');
    expect(state.message).to.equal(en.authenticationTimeout);
    expect(clock.pending).to.equal(0);
  });

  it('"More time" takes the warning away and starts the whole time again', async () => {
    const { host, result, clock } = await open(middleware([waiting]));
    await clock.tick(80_000);
    expect(host.flow.frame.timeoutWarning).to.equal(20);
    host.shadowRoot!.querySelector<HTMLButtonElement>('[part=more-time]')!.click();
    await clock.tick(0);
    expect(host.flow.frame.timeoutWarning).to.equal(0);
    await clock.tick(99_000);
    expect(host.flow.active, 'still open 179 s in').to.equal(true);
    host.flow.cancel();
    await clock.tick(0);
    expect((await result).status).to.equal('failed');
  });

  it('cancel closes the frame and ends as the middleware then says, asking again while it cannot yet', async () => {
    const { host, result, events, frame, clock, calls } = await open(
      middleware([waiting], [waiting, cancelled]),
    );
    host.flow.cancel();
    await clock.tick(0);
    expect(events).to.deep.equal(['pg-threeds-start', 'pg-threeds-checking']);
    expect(frame(), 'the frame goes at once').to.equal(null);
    expect(host.flow.phase).to.equal('resuming');
    expect(calls.cancels).to.equal(1);
    await clock.tick(2_000);
    const state = await result;
    expect(calls.cancels).to.equal(2);
    expect(state.success === false && state.code).to.equal('authentication_cancelled');
    expect(state.message, 'never the middleware text').to.equal(en.authenticationCancelled);
    expect(clock.pending).to.equal(0);
  });

  it('pauses while the element is out of the document, holding no timer, and resumes when it is back', async () => {
    const { host, result, frame, clock, calls } = await open(
      middleware([waiting, waiting, approved]),
    );
    const parent = host.parentElement!;
    host.remove();
    await clock.tick(0);
    expect(clock.pending, 'no poll, no time limit while away').to.equal(0);
    await clock.tick(60_000);
    expect(calls.reads).to.equal(0);
    expect(host.flow.active, 'a move never ends the payment').to.equal(true);
    parent.append(host);
    await clock.tick(0);
    expect(calls.reads, 'the state is read once it is back').to.equal(1);
    expect(frame(), 'the challenge is posted again').not.to.equal(null);
    await clock.tick(2_000);
    expect(calls.reads).to.equal(2);
    await clock.tick(2_000);
    expect((await result).status).to.equal('approved');
  });
});
