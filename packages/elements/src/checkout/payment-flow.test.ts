import { expect } from '@open-wc/testing';
import type { ReactiveController } from 'lit';
import { CheckoutApi } from '../api/client.js';
import type { PaymentRequest } from '../api/types.js';
import type { CheckoutStatus } from '../shared/events/status.js';
import { en } from '../i18n/en.js';
import type { Messages } from '../i18n/localize.js';
import { loadRunningPayment, orderMark, saveRunningPayment } from './running-payment.js';
import { until } from '../test-helpers/backend.js';
import { HandClock } from '../test-helpers/clock.js';
import { HostControllers } from '../test-helpers/host.js';
import { setOnline } from '../test-helpers/online.js';
import { LocalizeController } from '../shared/localize-controller.js';
import { PaymentFlowController, type PaymentFlowHost } from './payment-flow.js';

// The payment-flow controller on a synthetic host (no Lit, no render): a fake middleware behind the real
// client, a hand-driven clock for the waits between order reads.

/** The least an element must be to hold the flow: its settings, `status`/`reference`, and the controller hooks. */
class FlowHostElement extends HTMLElement implements PaymentFlowHost {
  endpoint = '/shop';
  savedCards = false;
  pollInterval = 1000;
  locale = 'en';
  messages: Partial<Messages> = {};
  status: CheckoutStatus = 'idle';
  reference = '';
  renders = 0;
  focused = 0;
  private readonly controllers = new HostControllers(() => this.isConnected);

  get renderRoot(): HTMLElement {
    return this;
  }

  get updateComplete(): Promise<boolean> {
    return Promise.resolve(true);
  }

  addController(controller: ReactiveController): void {
    this.controllers.add(controller);
  }

  removeController(controller: ReactiveController): void {
    this.controllers.remove(controller);
  }

  requestUpdate(): void {
    this.renders += 1;
  }

  connectedCallback(): void {
    this.controllers.call('hostConnected');
  }

  disconnectedCallback(): void {
    this.controllers.call('hostDisconnected');
  }
}
customElements.define('synthetic-flow-host', FlowHostElement);

type Answer = Response | 'lost';
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
const approved = (reference: string) => ({
  success: true,
  status: 'approved',
  reference,
  message: 'raw server text',
  clientSecret: `secret-${reference}`,
});
/** The middleware's answer to a payment it did not make, at `httpStatus`; its text is the server's, never shown. */
const notPaid = (httpStatus: number, body: Record<string, unknown>) =>
  json({ success: false, message: 'raw server text', ...body }, httpStatus);
const order = {
  success: true,
  amount: 14900,
  currency: 'ZAR',
  methods: ['card'],
  savedCards: false,
};

/** A middleware at `/shop` answering each route with the next answer of its list (the last repeats). */
function fakeShop(routes: Record<string, Answer[]>) {
  const calls: { route: string; body: unknown; secret: string | undefined }[] = [];
  routes['GET /config'] ??= [json(order)];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const route = `${init?.method ?? 'GET'} ${new URL(String(input)).pathname.replace(/^\/shop/, '')}`;
    const headers = (init?.headers ?? {}) as Record<string, string>;
    calls.push({
      route,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
      secret: headers['X-PG-Client-Secret'],
    });
    const list = routes[route] ?? [json({ success: false, code: 'not_found', message: '' }, 404)];
    const answer = list.length > 1 ? list.shift()! : list[0]!;
    if (answer === 'lost') throw new TypeError('Failed to fetch');
    return answer.clone();
  };
  const sent = (route: string) => calls.filter((c) => c.route === route);
  return { calls, sent, api: (endpoint: string) => new CheckoutApi(endpoint, fetch) };
}

const request: PaymentRequest = {
  card: {
    number: '4111111111111111',
    cardHolder: 'Jo Soap',
    expiryMonth: 8,
    expiryYear: new Date().getFullYear() + 2,
    cvv: '123',
    type: 'visa',
  },
  screenWidth: 1280,
  screenHeight: 800,
};

const endpoint = new URL('/shop', location.href).href;

/** A connected host holding the flow, its order read; what it said and dispatched is recorded. */
async function holdFlow(routes: Record<string, Answer[]>) {
  const shop = fakeShop(routes);
  const clock = new HandClock();
  const host = document.createElement('synthetic-flow-host') as FlowHostElement;
  const flow = new PaymentFlowController(host, {
    localize: new LocalizeController(host),
    focusMessage: async () => void (host.focused += 1),
    api: shop.api,
    clock,
  });
  const statuses: CheckoutStatus[] = [];
  const events: { type: string; detail: Record<string, unknown> }[] = [];
  host.addEventListener('pg-status-change', (e) => statuses.push(e.detail.status));
  for (const type of ['pg-approved', 'pg-declined', 'pg-failed', 'pg-pending'] as const)
    host.addEventListener(type, (e) => events.push({ type, detail: { ...e.detail } }));
  document.body.append(host);
  flow.useEndpoint(host.endpoint, false);
  await flow.refresh();
  let cleared = 0;
  const form = { clearCard: () => Promise.resolve(void (cleared += 1)) };
  return { shop, clock, host, flow, statuses, events, form, cleared: () => cleared };
}

/** The sentence the host's message region says now. */
function said(flow: PaymentFlowController): string {
  const m = flow.message;
  if (!m) return '';
  return 'key' in m ? flow.localize.t(m.key) : flow.localize.outcome(m.outcome);
}

describe('PaymentFlowController', () => {
  afterEach(() => {
    for (const host of document.querySelectorAll('synthetic-flow-host')) host.remove();
    localStorage.clear();
    sessionStorage.clear();
  });

  it('submit -> approved: sends the total it showed, says the outcome, dispatches pg-approved once', async () => {
    const { shop, host, flow, statuses, events, form } = await holdFlow({
      'POST /payments': [json(approved('ref-1'))],
    });
    expect(flow.config?.amount).to.equal(14900);
    const rendersBefore = host.renders;
    await flow.pay(request, form);
    expect(statuses).to.deep.equal(['submitting', 'approved']);
    expect(host.reference).to.equal('ref-1');
    expect(shop.sent('POST /payments')[0]!.body).to.deep.include({
      shown: { amount: 14900, currency: 'ZAR' },
    });
    expect(events).to.deep.equal([
      { type: 'pg-approved', detail: { reference: 'ref-1', message: en.approved } },
    ]);
    expect(said(flow)).to.equal(en.approved);
    expect(flow.orderClosed).to.equal(true);
    expect(host.renders).to.be.greaterThan(rendersBefore);
    expect(host.focused).to.equal(1);
    // This browser asked to pay: a reload asks the order before offering Pay again.
    expect(orderMark(endpoint)).to.equal(true);
    expect(flow.inFlight).to.equal(false);
  });

  it('declined: says so, clears the card for another, and the form stays the way on', async () => {
    const { host, flow, statuses, events, form, cleared } = await holdFlow({
      'POST /payments': [
        notPaid(402, {
          status: 'declined',
          reference: 'ref-2',
          code: 'card_declined',
          originalErrorCode: 'fin005',
        }),
      ],
    });
    await flow.pay(request, form);
    expect(statuses).to.deep.equal(['submitting', 'declined']);
    expect(host.reference).to.equal('ref-2');
    expect(events).to.deep.equal([
      {
        type: 'pg-declined',
        detail: {
          reference: 'ref-2',
          code: 'card_declined',
          originalErrorCode: 'fin005',
          message: en.declined,
        },
      },
    ]);
    expect(cleared()).to.equal(1);
    expect(said(flow)).to.equal(en.declined);
    expect(flow.orderClosed).to.equal(false);
  });

  it('amount_changed: nothing charged, the new total goes on Pay, and the next tap sends that total', async () => {
    const { shop, host, flow, statuses, events, form } = await holdFlow({
      'POST /payments': [
        notPaid(409, {
          status: 'failed',
          code: 'amount_changed',
          order: { amount: 44700, currency: 'ZAR' },
        }),
        json(approved('ref-3')),
      ],
    });
    await flow.pay(request, form);
    expect(flow.config?.amount).to.equal(44700);
    // Failed for a moment (the event), then the form with its new total is the way on: no "Try again".
    expect(statuses).to.deep.equal(['submitting', 'failed', 'idle']);
    // The sentence a screen reader reads first names the new total, as Pay shows it.
    const changed = en.amountChanged.replace('{total}', 'R\u00a0447,00');
    expect(changed).to.match(/^The total is now R.447,00\. Nothing was charged/);
    expect(events).to.deep.equal([
      {
        type: 'pg-failed',
        detail: { reference: undefined, code: 'amount_changed', message: changed },
      },
    ]);
    expect(said(flow)).to.equal(changed);
    await flow.pay(request, form);
    expect(shop.sent('POST /payments').map((c) => (c.body as PaymentRequest).shown)).to.deep.equal([
      { amount: 14900, currency: 'ZAR' },
      { amount: 44700, currency: 'ZAR' },
    ]);
    expect(host.status).to.equal('approved');
  });

  it('already paid by another tab: "this card was not charged", with the payment that paid', async () => {
    const { shop, host, flow, events, form } = await holdFlow({
      'POST /payments': [
        notPaid(409, {
          status: 'failed',
          reference: 'ref-mine',
          code: 'already_paid',
          message: '',
        }),
      ],
      'GET /order': [json({ success: true, status: 'paid', payment: approved('ref-other') })],
    });
    await flow.pay(request, form);
    expect(shop.sent('GET /order')).to.have.length(1);
    expect(host.status).to.equal('approved');
    expect(host.reference).to.equal('ref-other');
    expect(events).to.deep.equal([
      { type: 'pg-approved', detail: { reference: 'ref-other', message: en.alreadyPaid } },
    ]);
    expect(said(flow)).to.equal(en.alreadyPaid);
  });

  describe('offline', () => {
    afterEach(() => setOnline(undefined));

    it('offline at Pay: sends nothing, says nothing was charged; back online, Pay pays', async () => {
      const { shop, host, flow, statuses, events, form } = await holdFlow({
        'POST /payments': [json(approved('ref-4'))],
      });
      setOnline(false);
      await flow.pay(request, form);
      expect(shop.sent('POST /payments')).to.have.length(0);
      expect(statuses).to.deep.equal(['submitting', 'failed']);
      expect(events).to.deep.equal([
        {
          type: 'pg-failed',
          detail: { reference: undefined, code: 'offline', message: en.offline },
        },
      ]);
      setOnline(true);
      await flow.pay(request, form);
      expect(shop.sent('POST /payments')).to.have.length(1);
      expect(host.status).to.equal('approved');
    });

    it('the answer lost, then the order unreadable: checking, and asked again as soon as the connection is back', async () => {
      const { shop, clock, host, flow, statuses, events, form } = await holdFlow({
        'POST /payments': ['lost'],
        'GET /order': ['lost', json({ success: true, status: 'paid', payment: approved('ref-5') })],
      });
      const paying = flow.pay(request, form);
      // The backoff's first wait, not a failure: the card may have been charged.
      await until(() => clock.pending === 1);
      expect(host.status).to.equal('checking');
      expect(said(flow)).to.equal(en.checking);
      window.dispatchEvent(new Event('online'));
      await paying;
      // The wait ended by the connection left no timer behind.
      expect(clock.pending).to.equal(0);
      expect(shop.sent('GET /order')).to.have.length(2);
      expect(statuses).to.deep.equal(['submitting', 'checking', 'approved']);
      expect(events).to.deep.equal([
        { type: 'pg-approved', detail: { reference: 'ref-5', message: en.approved } },
      ]);
    });
  });

  it('polls the order until it is final: waits double from poll-interval, a Retry-After wins', async () => {
    const checking = () => json({ success: true, status: 'checking', message: '' });
    const { shop, clock, host, flow, statuses, form } = await holdFlow({
      'POST /payments': ['lost'],
      'GET /order': [
        checking(),
        checking(),
        json({ success: true, status: 'checking', message: '' }, 200, { 'retry-after': '5' }),
        json({ success: true, status: 'paid', payment: approved('ref-6') }),
      ],
    });
    const paying = flow.pay(request, form);
    const reads = () => shop.sent('GET /order').length;
    for (const [read, wait] of [
      [1, 1000],
      [2, 2000],
      [3, 5000],
    ] as const) {
      await until(() => reads() === read && clock.pending === 1);
      expect(host.status).to.equal('checking');
      // Not asked again a millisecond before the wait is over, asked once it is.
      await clock.tick(wait - 1);
      expect(reads()).to.equal(read);
      await clock.tick(1);
    }
    await paying;
    expect(reads()).to.equal(4);
    expect(statuses).to.deep.equal(['submitting', 'checking', 'approved']);
    expect(host.reference).to.equal('ref-6');
  });

  it('resumes the payment a reload interrupted: reads it with its secret and shows its outcome', async () => {
    saveRunningPayment(endpoint, { reference: 'ref-7', clientSecret: 'secret-7' });
    const { shop, host, flow, statuses, events } = await holdFlow({
      'GET /payments/ref-7': [json(approved('ref-7'))],
    });
    await until(() => host.status === 'approved');
    expect(shop.sent('GET /payments/ref-7').map((c) => c.secret)).to.deep.equal(['secret-7']);
    expect(statuses).to.deep.equal(['submitting', 'approved']);
    expect(events).to.deep.equal([
      { type: 'pg-approved', detail: { reference: 'ref-7', message: en.approved } },
    ]);
    expect(host.reference).to.equal('ref-7');
    // Final: nothing left to resume on the next load.
    expect(loadRunningPayment(endpoint)).to.equal(undefined);
    expect(flow.inFlight).to.equal(false);
  });

  it('a resumed payment the middleware does not know: back to idle, its entry gone', async () => {
    saveRunningPayment(endpoint, { reference: 'ref-8', clientSecret: 'secret-8' });
    const { shop, host, statuses, events } = await holdFlow({});
    await until(() => shop.sent('GET /payments/ref-8').length === 1 && host.status === 'idle');
    expect(statuses).to.deep.equal(['submitting', 'idle']);
    expect(events).to.deep.equal([]);
    expect(host.reference).to.equal('');
    expect(loadRunningPayment(endpoint)).to.equal(undefined);
  });

  it('back from a payment page (back-forward cache): "taking you there" ends and the paid order shows', async () => {
    const { shop, host, flow, statuses } = await holdFlow({
      'POST /eft': [
        json({
          success: true,
          reference: 'ref-9',
          clientSecret: 'secret-9',
          redirectUrl: 'https://pay.example/eft/ref-9',
        }),
      ],
      'GET /order': [json({ success: true, status: 'paid', payment: approved('ref-9') })],
    });
    // The shop's page cancels the navigation so the test page stays; the drop-in says it is on its way.
    host.addEventListener('pg-redirect', (e) => e.preventDefault());
    await flow.redirect('eft');
    expect(host.status).to.equal('submitting');
    expect(said(flow)).to.equal(en.redirecting);
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await until(() => host.status === 'approved');
    expect(statuses).to.deep.equal(['submitting', 'idle', 'approved']);
    expect(shop.sent('GET /order')).to.have.length(1);
    expect(said(flow)).to.equal(en.approved);
  });

  it('a bank check closed by the shopper is "checking" until the middleware says, never "no payment"', async () => {
    const { host, flow } = await holdFlow({});
    flow.threeDSChecking();
    expect(host.status).to.equal('checking');
    expect(said(flow)).to.equal(en.checking);
  });
});
