/**
 * The reconciliation sweep's cost: gateway calls and wall time per swept attempt, in-process
 * against the sandbox, for what a sweep meets: charges already handed over (the steady state),
 * charges a lost store forgot, hooks that threw, and attempts left open in 3-D Secure.
 */
import { GatewayClient } from '@pg-checkout/node';
import { createSandbox } from '@pg-checkout/sandbox';
import {
  createCheckoutHandler,
  MemoryStore,
  type CheckoutHandler,
  type CheckoutStore,
  type CheckoutSweep,
  type ReconcileSummary,
} from '@pg-checkout/server';
import { cardBody } from '@pg-checkout/test-helpers/cards';

export interface SweepRow {
  scenario: string;
  attempts: number;
  summary: ReconcileSummary;
  gatewayCallsMade: number;
  ms: number;
}

const ATTEMPTS = Number(process.env.BENCH_SWEEP_ATTEMPTS ?? 200);
const card = (number: string) => JSON.stringify(cardBody(number));

/** A sandbox of its own for one scenario, so that its sweep lists only that scenario's payments. */
async function world() {
  const sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  const counter = { calls: 0, failing: false };
  const counting: typeof fetch = (input, init) => {
    counter.calls += 1;
    return fetch(input, init);
  };
  const gateway = new GatewayClient({
    token: sandbox.token,
    secret: sandbox.secret,
    baseUrl: sandbox.url,
    fetch: counting,
  });
  const make = (store: CheckoutStore): CheckoutHandler & CheckoutSweep =>
    createCheckoutHandler({
      gateway,
      webhookSecret: sandbox.secret,
      publicUrl: 'http://127.0.0.1:1/checkout',
      store,
      rateLimit: false,
      resolveOrder: (request) => ({
        amount: 10_000,
        currency: 'ZAR',
        reference: request.headers.get('x-order') ?? 'none',
      }),
      onPaymentCompleted: async () => {
        if (counter.failing) throw new Error('orders database down');
      },
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
  const pay = async (handler: CheckoutHandler, count: number, number: string) => {
    for (let i = 0; i < count; i++) {
      const response = await handler(
        new Request('http://127.0.0.1:1/checkout/payments', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: 'http://127.0.0.1:1',
            'x-order': `sweep-${i}`,
          },
          body: card(number),
        }),
        { clientAddress: '203.0.113.7' },
      );
      await response.arrayBuffer();
    }
  };
  return { sandbox, counter, make, pay };
}

async function measure(
  scenario: string,
  counter: { calls: number },
  handler: CheckoutSweep,
  attempts: number,
): Promise<SweepRow> {
  const before = counter.calls;
  const started = performance.now();
  const summary = await handler.reconcile({ limit: 10_000 });
  return {
    scenario,
    attempts,
    summary,
    gatewayCallsMade: counter.calls - before,
    ms: performance.now() - started,
  };
}

export async function benchSweep(): Promise<SweepRow[]> {
  const rows: SweepRow[] = [];
  const scenarios: [string, (w: Awaited<ReturnType<typeof world>>) => Promise<CheckoutSweep>][] = [
    [
      'charges already handed over (steady state)',
      async (w) => {
        const shop = w.make(new MemoryStore());
        await w.pay(shop, ATTEMPTS, '4111111111111111');
        return shop;
      },
    ],
    [
      'charges a lost store forgot (a restart with an empty store)',
      async (w) => {
        const shop = w.make(new MemoryStore());
        await w.pay(shop, ATTEMPTS, '4111111111111111');
        shop.close();
        return w.make(new MemoryStore());
      },
    ],
    [
      'hooks that threw (outbox entries; in-process retries stopped)',
      async (w) => {
        const store = new MemoryStore();
        const shop = w.make(store);
        w.counter.failing = true;
        await w.pay(shop, ATTEMPTS, '4111111111111111');
        shop.close();
        w.counter.failing = false;
        return w.make(store);
      },
    ],
    [
      'attempts left open in 3-D Secure',
      async (w) => {
        const shop = w.make(new MemoryStore());
        await w.pay(shop, ATTEMPTS, '4000000000003055');
        // The open attempts are put on the sweep's list without holding up the answer.
        await new Promise((r) => setTimeout(r, 100));
        return shop;
      },
    ],
  ];
  for (const [scenario, arrange] of scenarios) {
    const w = await world();
    try {
      const sweeper = await arrange(w);
      rows.push(await measure(scenario, w.counter, sweeper, ATTEMPTS));
      sweeper.close();
    } finally {
      await w.sandbox.close();
    }
  }
  return rows;
}
