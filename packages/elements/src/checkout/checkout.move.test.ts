import { expect, fixture, html } from '@open-wc/testing';
import type { PgCardForm } from '../card-form/card-form.component.js';
import { backend, decide, record, until } from '../test-helpers/backend.js';
import { fillCard } from '../test-helpers/input.js';
import './checkout.js';
import type { PgCheckout } from './checkout.component.js';

// Issue 12: moving the drop-in while a payment runs (Vue <KeepAlive>, a React portal, Vue <Teleport>,
// appendChild elsewhere) must not end the payment, and a drop-in left behind must not cancel it.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const storageKey = async () => `pg-checkout:payment:${(await backend()).endpoint}`;
const stored = async () => {
  const raw = sessionStorage.getItem(await storageKey());
  return raw ? (JSON.parse(raw) as { reference: string; clientSecret: string }) : undefined;
};

/** A page with two places: the drop-in starts in the first. */
async function page() {
  const { endpoint } = await backend();
  const root = await fixture<HTMLDivElement>(
    html`<div>
      <div class="a">
        <pg-checkout endpoint=${endpoint} method-timeout="200" poll-interval="100"></pg-checkout>
      </div>
      <div class="b"></div>
    </div>`,
  );
  const el = root.querySelector('pg-checkout') as PgCheckout;
  await until(() =>
    /123/.test(form(el)?.shadowRoot?.querySelector('button[type=submit]')?.textContent ?? ''),
  );
  return {
    el,
    a: root.querySelector<HTMLDivElement>('.a')!,
    b: root.querySelector<HTMLDivElement>('.b')!,
  };
}

const form = (el: PgCheckout) => el.shadowRoot!.querySelector('pg-card-form') as PgCardForm;
const challengeFrame = (el: PgCheckout) =>
  el
    .shadowRoot!.querySelector('pg-3ds-v2')
    ?.shadowRoot?.querySelector<HTMLIFrameElement>('iframe[part=frame]') ?? null;

async function pay(el: PgCheckout, number: string) {
  const f = form(el);
  await fillCard(f, number);
  f.submit();
}

/** Every outcome event the drop-in sends, in order. */
function outcomes(el: PgCheckout) {
  const seen: string[] = [];
  for (const type of ['pg-approved', 'pg-declined', 'pg-failed', 'pg-pending'] as const)
    el.addEventListener(type, (e) => {
      const code = (e.detail as { code?: string }).code;
      seen.push(code ? `${type}:${code}` : type);
    });
  return seen;
}

describe('<pg-checkout> moved during a payment', () => {
  beforeEach(async () => sessionStorage.removeItem(await storageKey()));

  it('moved with appendChild mid-challenge: the challenge opens again and the payment is approved, with no pg-failed', async () => {
    const { el, b } = await page();
    const seen = outcomes(el);
    await pay(el, '4000000000000010');
    await until(() => challengeFrame(el) !== null);
    const before = challengeFrame(el)!.name;
    b.appendChild(el);
    await until(() => challengeFrame(el) !== null && challengeFrame(el)!.name !== before);
    expect(el.status).to.equal('authenticating');
    await sleep(200);
    expect(seen).to.deep.equal([]);
    await decide(el.reference);
    await until(() => el.status === 'approved');
    await sleep(200);
    expect(seen).to.deep.equal(['pg-approved']);
    expect(await stored()).to.equal(undefined);
  });

  it('KeepAlive: deactivated for a while, decided meanwhile, reactivated: nothing while away, pg-approved once on return', async () => {
    const { el, a } = await page();
    const seen = outcomes(el);
    const statuses: string[] = [];
    await pay(el, '4000000000000010');
    await until(() => challengeFrame(el) !== null);
    await sleep(300);
    el.addEventListener('pg-status-change', (e) => statuses.push(e.detail.status));
    el.remove();
    await sleep(50);
    const reference = el.reference;
    const reads = ((await record(reference)).reads as number | undefined) ?? 0;
    await decide(reference);
    await sleep(800);
    expect(seen, 'no event while detached').to.deep.equal([]);
    expect(statuses).to.deep.equal([]);
    expect(el.status).to.equal('authenticating');
    expect((await record(reference)).reads ?? 0, 'the detached drop-in stopped polling').to.equal(
      reads,
    );
    expect((await stored())?.reference, 'still resumable').to.equal(reference);
    a.append(el);
    await until(() => el.status === 'approved');
    await sleep(300);
    expect(seen).to.deep.equal(['pg-approved']);
    expect(await stored()).to.equal(undefined);
  });

  it('removed for good (a route change): not cancelled; a new drop-in resumes it by reference and the shopper finishes', async () => {
    const { endpoint } = await backend();
    const { el, a } = await page();
    const seen = outcomes(el);
    await pay(el, '4000000000000010');
    await until(() => challengeFrame(el) !== null);
    const reference = el.reference;
    el.remove();
    await sleep(300);
    expect(seen, 'the left-behind drop-in says nothing').to.deep.equal([]);
    expect((await stored())?.reference).to.equal(reference);
    const again = document.createElement('pg-checkout');
    again.setAttribute('endpoint', endpoint);
    again.setAttribute('poll-interval', '100');
    const seenAgain = outcomes(again);
    a.append(again);
    await until(() => again.status === 'authenticating' && challengeFrame(again) !== null);
    expect(again.reference).to.equal(reference);
    await decide(reference);
    await until(() => again.status === 'approved');
    await sleep(200);
    expect(seenAgain).to.deep.equal(['pg-approved']);
    expect(seen).to.deep.equal([]);
    expect(await stored()).to.equal(undefined);
    again.remove();
  });

  it('a create answer that arrives while the drop-in is away is said on its return', async () => {
    const { el, a } = await page();
    const seen = outcomes(el);
    await pay(el, '4000000000000002');
    el.remove(); // before the middleware answered
    await sleep(500);
    expect(seen).to.deep.equal([]);
    expect(el.status).to.equal('submitting');
    a.append(el);
    await until(() => el.status === 'declined');
    await sleep(100);
    expect(seen).to.deep.equal(['pg-declined:card_declined']);
  });
});
