import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import type { ThreeDSV1Action, ThreeDSV2Action } from '../api/types.js';
import { backend, createPayment, decide, record, until } from '../test-helpers/backend.js';
import { trackMessageListeners } from '../test-helpers/listeners.js';
import './3ds-v1.js';
import type { Pg3dsV1 } from './3ds-v1.component.js';
import './3ds-v2.js';
import type { Pg3dsV2 } from './3ds-v2.component.js';

// Moving a 3-D Secure element (Vue <KeepAlive>, a portal, appendChild elsewhere) is a disconnect and a
// connect: the payment goes on, and only the gateway's decision (or the shopper's Cancel) ends it.

async function authenticating<A>(number: string) {
  const state = await createPayment(number);
  if (state.status !== 'authenticating') throw new Error(`expected 3-D Secure: ${state.status}`);
  return {
    reference: state.reference,
    action: state.threeDS as A,
    clientSecret: state.clientSecret,
  };
}

/** Two places on the page: the element starts in the first. */
async function twoPlaces<E extends HTMLElement>(tag: 'pg-3ds-v2' | 'pg-3ds-v1') {
  const { endpoint } = await backend();
  const page = await fixture<HTMLDivElement>(
    tag === 'pg-3ds-v2'
      ? html`<div>
          <div class="a" style="width:480px">
            <pg-3ds-v2 endpoint=${endpoint} poll-interval="100"></pg-3ds-v2>
          </div>
          <div class="b" style="width:480px"></div>
        </div>`
      : html`<div>
          <div class="a" style="width:480px">
            <pg-3ds-v1 endpoint=${endpoint} poll-interval="100"></pg-3ds-v1>
          </div>
          <div class="b" style="width:480px"></div>
        </div>`,
  );
  return {
    el: page.querySelector(tag) as unknown as E,
    a: page.querySelector<HTMLDivElement>('.a')!,
    b: page.querySelector<HTMLDivElement>('.b')!,
  };
}

const frame = (el: HTMLElement) =>
  el.shadowRoot!.querySelector<HTMLIFrameElement>('iframe[part=frame]');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const acsPosts = async (reference: string) =>
  ((await record(reference)).acsPosts as number | undefined) ?? 0;

/** Every pg-threeds-complete the element sends. */
function completions(el: HTMLElement) {
  const seen: { status: string; code?: string }[] = [];
  el.addEventListener('pg-threeds-complete', (e) => seen.push(e.detail));
  return seen;
}

describe('<pg-3ds-v2> moved during a payment', () => {
  it('moved synchronously (appendChild elsewhere) mid-challenge: posted again into a fresh frame, then approved', async () => {
    const { el, b } = await twoPlaces<Pg3dsV2>('pg-3ds-v2');
    const seen = completions(el);
    const { reference, action, clientSecret } =
      await authenticating<ThreeDSV2Action>('4000000000000010');
    const done = el.start(reference, action, clientSecret);
    await oneEvent(el, 'pg-threeds-start');
    await until(() => frame(el) !== null);
    for (let i = 0; i < 100 && (await acsPosts(reference)) < 1; i += 1) await sleep(30);
    const before = frame(el)!.name;
    const reopened = oneEvent(el, 'pg-threeds-start');
    b.appendChild(el); // the moved iframe would reload blank: the bank's page is lost
    await reopened;
    await until(() => frame(el) !== null && frame(el)!.name !== before);
    for (let i = 0; i < 100 && (await acsPosts(reference)) < 2; i += 1) await sleep(30);
    expect(await acsPosts(reference), 'the challenge was posted again').to.equal(2);
    expect(seen, 'nothing ended').to.deep.equal([]);
    await decide(reference);
    const result = await done;
    expect(result.status).to.equal('approved');
    expect(seen).to.deep.equal([{ reference, status: 'approved' }]);
    expect(el.shadowRoot!.querySelectorAll('iframe').length).to.equal(0);
  });

  it('detached, kept away, then reattached: nothing runs meanwhile, and the outcome decided meanwhile is reported once', async () => {
    const { el, a } = await twoPlaces<Pg3dsV2>('pg-3ds-v2');
    const seen = completions(el);
    const { reference, action, clientSecret } =
      await authenticating<ThreeDSV2Action>('4000000000000010');
    let settled = false;
    const done = el.start(reference, action, clientSecret);
    void done.then(() => (settled = true));
    await oneEvent(el, 'pg-threeds-start');
    await sleep(350);
    el.remove(); // KeepAlive deactivates it
    await sleep(50);
    const readsAtRemoval = ((await record(reference)).reads as number | undefined) ?? 0;
    expect(readsAtRemoval, 'it polled while shown').to.be.at.least(1);
    await sleep(600);
    expect((await record(reference)).reads ?? 0, 'the poller stopped').to.equal(readsAtRemoval);
    await decide(reference);
    await sleep(400);
    expect(settled, 'no outcome while detached').to.equal(false);
    expect(seen).to.deep.equal([]);
    expect((await record(reference)).reads ?? 0).to.equal(readsAtRemoval);
    a.append(el); // KeepAlive activates it again
    const result = await done;
    expect(result.status).to.equal('approved');
    await sleep(300);
    expect(seen).to.deep.equal([{ reference, status: 'approved' }]);
    expect(await acsPosts(reference), 'a decided payment is not posted again').to.equal(1);
    expect(el.shadowRoot!.querySelectorAll('iframe').length).to.equal(0);
  });

  it('detached, then reattached while the bank still waits: the challenge opens again and the shopper can finish', async () => {
    const { el, a } = await twoPlaces<Pg3dsV2>('pg-3ds-v2');
    const seen = completions(el);
    const { reference, action, clientSecret } =
      await authenticating<ThreeDSV2Action>('4000000000000010');
    const done = el.start(reference, action, clientSecret);
    await oneEvent(el, 'pg-threeds-start');
    el.remove();
    expect(el.shadowRoot!.querySelectorAll('iframe[part=frame]').length).to.be.at.most(1);
    await sleep(500);
    const reopened = oneEvent(el, 'pg-threeds-start');
    a.append(el);
    expect((await reopened).detail.step).to.equal('challenge');
    await until(() => frame(el) !== null);
    await decide(reference);
    expect((await done).status).to.equal('approved');
    expect(seen.map((s) => s.status)).to.deep.equal(['approved']);
  });

  it('moved with moveBefore() (state-preserving): the bank page stays, nothing is posted again', async function (this: {
    skip(): void;
  }) {
    if (!('moveBefore' in Element.prototype)) this.skip();
    const { el, b } = await twoPlaces<Pg3dsV2>('pg-3ds-v2');
    const seen = completions(el);
    const { reference, action, clientSecret } =
      await authenticating<ThreeDSV2Action>('4000000000000010');
    const done = el.start(reference, action, clientSecret);
    await oneEvent(el, 'pg-threeds-start');
    for (let i = 0; i < 100 && (await acsPosts(reference)) < 1; i += 1) await sleep(30);
    const before = frame(el)!;
    (b as unknown as { moveBefore(node: Node, child: Node | null): void }).moveBefore(el, null);
    await sleep(300);
    expect(frame(el)).to.equal(before);
    expect(await acsPosts(reference)).to.equal(1);
    await decide(reference);
    expect((await done).status).to.equal('approved');
    expect(seen.map((s) => s.status)).to.deep.equal(['approved']);
  });

  it('cancel() still ends a detached flow at once, as cancelled', async () => {
    const { el } = await twoPlaces<Pg3dsV2>('pg-3ds-v2');
    const { reference, action, clientSecret } =
      await authenticating<ThreeDSV2Action>('4000000000000010');
    const done = el.start(reference, action, clientSecret);
    await oneEvent(el, 'pg-threeds-start');
    el.remove();
    el.cancel();
    const result = await done;
    expect(result.success === false && result.code).to.equal('authentication_cancelled');
  });

  it('a detached element holds no message listener, frame or timer', async () => {
    const { el } = await twoPlaces<Pg3dsV2>('pg-3ds-v2');
    const tracker = trackMessageListeners();
    try {
      const { reference, action, clientSecret } =
        await authenticating<ThreeDSV2Action>('4000000000000010');
      void el.start(reference, action, clientSecret);
      await oneEvent(el, 'pg-threeds-start');
      expect(tracker.leftBehind()).to.equal(1);
      el.remove();
      await sleep(50);
      expect(tracker.leftBehind()).to.equal(0);
      expect(el.shadowRoot!.querySelectorAll('iframe').length).to.equal(0);
      el.cancel();
    } finally {
      tracker.restore();
    }
  });
});

describe('<pg-3ds-v1> moved during a payment', () => {
  it('moved synchronously mid-challenge: PaReq posted again, then approved without a failure', async () => {
    const { el, b } = await twoPlaces<Pg3dsV1>('pg-3ds-v1');
    const seen = completions(el);
    const { reference, action, clientSecret } =
      await authenticating<ThreeDSV1Action>('4000000000000028');
    const done = el.start(reference, action, clientSecret);
    await oneEvent(el, 'pg-threeds-start');
    for (let i = 0; i < 100 && (await acsPosts(reference)) < 1; i += 1) await sleep(30);
    const reopened = oneEvent(el, 'pg-threeds-start');
    b.appendChild(el);
    await reopened;
    for (let i = 0; i < 100 && (await acsPosts(reference)) < 2; i += 1) await sleep(30);
    expect(await acsPosts(reference)).to.equal(2);
    await decide(reference);
    expect((await done).status).to.equal('approved');
    expect(seen.map((s) => s.status)).to.deep.equal(['approved']);
  });
});
