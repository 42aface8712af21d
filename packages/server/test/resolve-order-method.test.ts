/** Issue 30: `resolveOrder(req, { method })` is told the method from the route, never the browser's body. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeGateway } from '@pg-checkout/test-helpers/fake-gateway';
import { createCheckoutHandler, type CheckoutOrder, type PaymentMethodKind } from '../src/index.js';
import { callJson, cardBody, serveHandler } from '@pg-checkout/test-helpers/fetch-server';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('resolveOrder is told the method the request is about', () => {
  const gateway = new FakeGateway();
  let handler: ReturnType<typeof createCheckoutHandler>;
  let served: Awaited<ReturnType<typeof serveHandler>>;
  /** Every resolveOrder call: the route asked and the method it was told. */
  const told: { route: string; method: PaymentMethodKind | undefined }[] = [];

  /** A shop that prices per method: the hosted page charges the order's total in USD. */
  const priced = (reference: string, method: PaymentMethodKind | undefined): CheckoutOrder =>
    method === 'hosted'
      ? { amount: 805, currency: 'USD', reference }
      : { amount: 14_900, currency: 'ZAR', reference };

  before(async () => {
    served = await serveHandler(() => handler);
    handler = createCheckoutHandler({
      gateway,
      sessionSecret: 's'.repeat(32),
      webhookSecret: 'whsec',
      publicUrl: `${served.base}/api/checkout`,
      methods: ['card', 'hosted', 'redirect', 'eft'],
      redirectUrls: {
        success: `${served.base}/done`,
        cancel: `${served.base}/cancelled`,
        error: `${served.base}/error`,
      },
      savedCards: { shopperId: (req) => req.headers.get('x-shopper') ?? undefined },
      resolveOrder: (req, context) => {
        // `?.`: a core that tells no method must fail these tests, not throw in the shop's hook.
        const method = context?.method;
        told.push({ route: `${req.method} ${new URL(req.url).pathname}`, method });
        return priced(req.headers.get('x-order') ?? 'no-order', method);
      },
      rateLimit: false,
      logger: quiet,
    });
  });
  after(async () => {
    handler.close();
    await served.close();
  });

  /** A call for order `order` as its checkout page makes it; what resolveOrder was told meanwhile. */
  async function asked(
    order: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    told.length = 0;
    const answer = await callJson(served.base, method, `/api/checkout${path}`, body, {
      'x-order': order,
      ...headers,
    });
    return { ...answer, told: told.map((t) => t.method) };
  }

  it('a card payment: card', async () => {
    const paid = await asked('o-card', 'POST', '/payments', cardBody('4111111111111111'));
    assert.equal(paid.body.status, 'approved', JSON.stringify(paid.body));
    assert.deepEqual(paid.told, ['card'], 'once, as a card');
  });

  it('a saved card’s token: saved_card, and so are its confirm and status reads', async () => {
    const shopper = { 'x-shopper': 'thandi' };
    const saved = await asked('o-saved', 'POST', '/cards', cardBody('4000000000003220'), shopper);
    assert.equal(saved.status, 201, JSON.stringify(saved.body));
    const started = await asked(
      'o-saved',
      'POST',
      '/payments',
      { card: { token: saved.body.card.token }, screenWidth: 1280, screenHeight: 800 },
      shopper,
    );
    assert.equal(started.body.status, 'authenticating', JSON.stringify(started.body));
    assert.deepEqual(started.told, ['saved_card']);
    const secret = { ...shopper, 'x-pg-client-secret': started.body.clientSecret };
    const path = `/payments/${started.body.reference}`;
    const confirmed = await asked('o-saved', 'POST', `${path}/3dsv2/confirm`, {}, secret);
    assert.equal(confirmed.body.status, 'approved', JSON.stringify(confirmed.body));
    assert.deepEqual(confirmed.told, ['saved_card']);
    const status = await asked('o-saved', 'GET', path, undefined, secret);
    assert.deepEqual([status.body.status, status.told], ['approved', ['saved_card']]);
  });

  it('a token that is not the shopper’s is refused, nothing charged', async () => {
    const creates = gateway.calls.filter((c) => c === 'create').length;
    const paid = await asked(
      'o-stranger',
      'POST',
      '/payments',
      { card: { token: 'tok-not-yours' }, screenWidth: 1280, screenHeight: 800 },
      { 'x-shopper': 'thandi' },
    );
    assert.ok(paid.status >= 400 && paid.status < 500, JSON.stringify(paid.body));
    assert.equal(
      gateway.calls.filter((c) => c === 'create').length,
      creates,
      'checked before any create is sent',
    );
  });

  it('the hosted page, redirect and EFT: their own method, and the hosted one charged in USD', async () => {
    for (const method of ['hosted', 'redirect', 'eft'] as const) {
      const started = await asked(`o-${method}`, 'POST', `/${method}`, {});
      assert.equal(started.status, 200, JSON.stringify(started.body));
      assert.deepEqual(started.told, [method]);
    }
    assert.deepEqual(
      (gateway.lastRedirect?.transaction as { amount: number; currency: string }).currency,
      'ZAR',
      'EFT, the last one started, in the shop’s own currency',
    );
    const hosted = [...gateway.txns.values()].find((t) => t.merchantReference === 'o-hosted-1');
    assert.deepEqual([hosted?.amount, hosted?.currency], [805, 'USD']);
  });

  it('a method named in the body changes nothing: the route decides', async () => {
    const paid = await asked('o-named', 'POST', '/payments', {
      ...cardBody('4111111111111111'),
      method: 'hosted',
    });
    assert.equal(paid.body.status, 'approved', JSON.stringify(paid.body));
    assert.deepEqual(paid.told, ['card']);
    assert.equal(
      gateway.charged().find((t) => t.merchantReference === 'o-named-1')?.amount,
      14_900,
    );
  });

  it('display reads before a method is chosen: undefined', async () => {
    const config = await asked('o-display', 'GET', '/config');
    assert.deepEqual([config.body.amount, config.body.currency], [14_900, 'ZAR']);
    assert.deepEqual(config.told, [undefined]);
    const order = await asked('o-display', 'GET', '/order');
    assert.equal(order.body.status, 'open');
    assert.deepEqual(order.told, [undefined]);
  });

  it('a paid USD hosted payment reads approved, priced for the method that paid it', async () => {
    const started = await asked('o-paid-usd', 'POST', '/hosted', {});
    const { reference, clientSecret } = started.body as { reference: string; clientSecret: string };
    gateway.txns.get(reference)!.status = 'SETTLED'; // paid on the gateway's page

    const status = await asked('o-paid-usd', 'GET', `/payments/${reference}`, undefined, {
      'x-pg-client-secret': clientSecret,
    });
    assert.equal(status.body.status, 'approved', JSON.stringify(status.body));
    assert.deepEqual(status.told, ['hosted'], 'a read of the hosted payment is priced as one');

    const order = await asked('o-paid-usd', 'GET', '/order');
    assert.equal(order.body.status, 'paid', JSON.stringify(order.body));
    assert.equal(order.body.payment.status, 'approved', JSON.stringify(order.body));
    assert.deepEqual(order.told, [undefined, 'hosted']);

    // Another tab pays by card: the order is already paid in USD, nothing more is charged.
    const again = await asked('o-paid-usd', 'POST', '/payments', cardBody('4111111111111111'));
    assert.equal(again.body.status, 'approved', JSON.stringify(again.body));
    assert.equal(again.body.alreadyPaid, true);
    assert.deepEqual(again.told, ['card', 'hosted']);
    assert.equal(
      gateway.charged().filter((t) => t.merchantReference.startsWith('o-paid-usd')).length,
      1,
    );
  });

  it('a card payment confirmed after its method step and read back: card', async () => {
    const started = await asked('o-step2', 'POST', '/payments', cardBody('4000000000003220'));
    assert.equal(started.body.status, 'authenticating', JSON.stringify(started.body));
    const secret = { 'x-pg-client-secret': started.body.clientSecret };
    const path = `/payments/${started.body.reference}`;
    const confirmed = await asked('o-step2', 'POST', `${path}/3dsv2/confirm`, {}, secret);
    assert.equal(confirmed.body.status, 'approved', JSON.stringify(confirmed.body));
    assert.deepEqual(confirmed.told, ['card']);
    const status = await asked('o-step2', 'GET', path, undefined, secret);
    assert.equal(status.body.status, 'approved');
    assert.deepEqual(status.told, ['card']);
  });
});
