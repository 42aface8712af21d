import { expect, fixture, html } from '@open-wc/testing';
import type { PaymentState } from '../api/types.js';
import { waitForCompletion, type CompletionOptions } from './completion.js';

const reference = 'ref-1';
const authenticating: PaymentState = {
  success: true,
  status: 'authenticating',
  reference,
  threeDS: {
    version: 1,
    acsUrl: 'https://acs.test',
    paReq: 'p',
    md: 'm',
    termUrl: 'https://shop.test/t',
    callbackOrigin: 'https://shop.test',
  },
};
const approved: PaymentState = { success: true, status: 'approved', reference, message: 'ok' };
const failedWith = (code: string): PaymentState => ({
  success: false,
  status: 'failed',
  reference,
  code,
  message: '',
});

/** A same-origin frame; `post` sends a message whose source is the frame's own window. */
async function frame() {
  const el = await fixture<HTMLIFrameElement>(html`<iframe srcdoc="<p>bank</p>"></iframe>`);
  const post = (data: unknown) => {
    const win = el.contentWindow as Window & typeof globalThis;
    new win.Function('data', 'parent.postMessage(data, "*")')(data);
  };
  return { el, post };
}

/** A status read that answers the queued states in turn (the last one forever) and counts calls. */
function reads(...states: (PaymentState | Error)[]) {
  let calls = 0;
  const read = () => {
    const next = states[Math.min(calls, states.length - 1)]!;
    calls += 1;
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  };
  return { read, calls: () => calls };
}

const message = { source: 'pg-checkout', type: '3ds-complete', reference };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function options(
  el: HTMLIFrameElement,
  read: () => Promise<PaymentState>,
  signal: AbortSignal,
  more: Partial<CompletionOptions> = {},
): CompletionOptions {
  return {
    frame: el,
    origins: [location.origin],
    reference,
    read,
    pollInterval: 60_000,
    signal,
    ...more,
  };
}

describe('waitForCompletion', () => {
  it('polls until a final state; network errors and a failing read are not final', async () => {
    const { el } = await frame();
    const status = reads(
      authenticating,
      failedWith('network_error'),
      new Error('boom'),
      failedWith('gateway_unavailable'),
      failedWith('http_502'),
      // the middleware's 503s: the gateway has not answered yet, or its store is full
      failedWith('temporarily_unavailable'),
      failedWith('service_busy'),
      approved,
    );
    const result = await waitForCompletion(
      options(el, status.read, new AbortController().signal, { pollInterval: 10 }),
    );
    expect(result).to.deep.equal({ state: approved });
    expect(status.calls()).to.equal(8);
  });

  it('takes a 404 from the status read as final, and pending as the end of the flow', async () => {
    const { el } = await frame();
    const gone = await waitForCompletion(
      options(el, reads(failedWith('not_found')).read, new AbortController().signal, {
        pollInterval: 10,
      }),
    );
    expect(gone).to.deep.equal({ state: failedWith('not_found') });
    const pending: PaymentState = { success: true, status: 'pending', reference, message: '' };
    const later = await waitForCompletion(
      options(el, reads(authenticating, pending).read, new AbortController().signal, {
        pollInterval: 10,
      }),
    );
    expect(later).to.deep.equal({ state: pending });
  });

  it('reads at once on a message from its frame, from an accepted origin, for its reference', async () => {
    const { el, post } = await frame();
    const status = reads(approved);
    const done = waitForCompletion(options(el, status.read, new AbortController().signal));
    post({ ...message, reference: 'ref-2' });
    post({ ...message, type: 'other' });
    post('3ds-complete');
    await pause(50);
    expect(status.calls()).to.equal(0);
    post(message);
    expect(await done).to.deep.equal({ state: approved });
    expect(status.calls()).to.equal(1);
  });

  it('ignores the right message from another window or from an origin it was not given', async () => {
    const { el, post } = await frame();
    const status = reads(approved);
    const controller = new AbortController();
    const done = waitForCompletion(
      options(el, status.read, controller.signal, {
        origins: ['https://pay.shop.test', 'null', 'not an origin', undefined],
      }),
    );
    post(message); // the frame's window, but this page's origin is not among the accepted ones
    window.postMessage(message, '*'); // right origin would not help: not the frame's window
    await pause(50);
    expect(status.calls()).to.equal(0);
    controller.abort();
    expect(await done).to.equal(undefined);
  });

  it('takes a callbackOrigin written as a URL for its origin', async () => {
    const { el, post } = await frame();
    const status = reads(approved);
    const done = waitForCompletion(
      options(el, status.read, new AbortController().signal, {
        origins: ['https://pay.shop.test', `${location.origin}/checkout`],
      }),
    );
    post(message);
    expect(await done).to.deep.equal({ state: approved });
  });

  it('keeps polling after a message while the state is undecided, and ends on the decision', async () => {
    const { el, post } = await frame();
    let calls = 0;
    const read = async (): Promise<PaymentState> => (++calls < 5 ? authenticating : approved);
    const done = waitForCompletion(
      options(el, read, new AbortController().signal, { pollInterval: 20 }),
    );
    await pause(30);
    post(message);
    expect(await done).to.deep.equal({ state: approved });
    expect(calls).to.equal(5);
  });

  it('leaves no listener or timer behind: a later message or tick reads nothing', async () => {
    const { el, post } = await frame();
    const first = reads(approved);
    await waitForCompletion(
      options(el, first.read, new AbortController().signal, { pollInterval: 10 }),
    );
    expect(first.calls()).to.equal(1);
    // A new flow on the same frame and reference: only its own listener may answer.
    const second = reads(authenticating);
    const controller = new AbortController();
    const running = waitForCompletion(options(el, second.read, controller.signal));
    post(message);
    await pause(60);
    expect(first.calls()).to.equal(1);
    expect(second.calls()).to.equal(1);
    controller.abort();
    expect(await running).to.equal(undefined);
    post(message);
    await pause(60);
    expect(second.calls()).to.equal(1);
  });
});
