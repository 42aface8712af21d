/**
 * The sweep reads the gateway's list whole, even where the gateway cuts a long list short (the spec
 * names no maximum; the sandbox answers the latest 1,000): a minute's burst of charges inside a
 * day's window is asked for in halves until each answer is short.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createContext } from '../src/setup/context.js';
import { validateOptions } from '../src/setup/validate-options.js';
import type { CheckoutGateway, ListedTransaction } from '../src/index.js';
import { reconcile } from '../src/use-cases/reconcile.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const notUsed = () => Promise.reject(new Error('not used'));

type Charge = { reference: string; merchantReference: string; at: number };

/**
 * A sweep over `charges` through a gateway whose list answers a window's charges as `cut` leaves
 * them: the charges handed over (by reference, how often), the summary and the list calls made.
 */
async function sweep(
  now: number,
  charges: Charge[],
  cut: (inWindow: Charge[]) => Charge[],
): Promise<{
  handed: Map<string, number>;
  summary: Awaited<ReturnType<typeof reconcile>>;
  lists: () => number;
  again: () => ReturnType<typeof reconcile>;
}> {
  let lists = 0;
  const gateway = {
    payments: {
      create: notUsed,
      confirm3dsV1: notUsed,
      confirm3dsV2: notUsed,
      confirmStep2: notUsed,
    },
    lookups: {
      payment: notUsed,
      redirect: notUsed,
      list: async ({ fromDate, toDate }: { fromDate?: string; toDate?: string }) => {
        lists += 1;
        const from = Date.parse(fromDate!);
        const to = Date.parse(toDate!);
        const rows = cut(charges.filter((c) => c.at >= from && c.at <= to));
        return rows.map((c) => ({
          ...c,
          amount: 10_000,
          currency: 'ZAR',
          status: 'SETTLED',
        })) as ListedTransaction[];
      },
    },
    reconcile: notUsed,
  } as unknown as CheckoutGateway;
  const handed = new Map<string, number>();
  const ctx = createContext(
    validateOptions({
      gateway,
      webhookSecret: 'w'.repeat(32),
      publicUrl: 'https://shop.test/checkout',
      resolveOrder: () => ({ amount: 1, currency: 'ZAR', reference: 'x' }),
      onPaymentCompleted: (event: { reference: string }) =>
        void handed.set(event.reference, (handed.get(event.reference) ?? 0) + 1),
      logger: silent,
    }),
    { now: () => now },
  );
  const summary = await reconcile({ limit: 10_000 }, ctx);
  return { handed, summary, lists: () => lists, again: () => reconcile({ limit: 10_000 }, ctx) };
}

describe('reconcile(): a gateway list that is cut short', () => {
  it('1,500 charges within a minute, a list capped at the latest 600: every one handed over once', async () => {
    const now = 1_800_000_000_000;
    const charges = Array.from({ length: 1_500 }, (_, i) => ({
      reference: `G${i}`,
      merchantReference: `order-${i}-1`,
      at: now - 60_000 + i * 40,
    }));
    const { handed, summary, lists, again } = await sweep(now, charges, (rows) => rows.slice(-600));
    assert.equal(handed.size, 1_500, JSON.stringify(summary));
    assert.ok([...handed.values()].every((n) => n === 1));
    assert.equal(summary.gatewayCalls, lists());
    assert.ok(lists() < 100, `${lists()} list calls`);
    assert.equal((await again()).delivered, 0);
  });
});

describe('reconcile(): a list cut shorter than any size the core could assume', () => {
  for (const order of ['oldest first', 'newest first'] as const)
    it(`350 charges in a day, a list of at most 100 (${order}, as the strict sandbox): every one handed over once`, async () => {
      const now = 1_800_000_000_000;
      const charges = Array.from({ length: 350 }, (_, i) => ({
        reference: `S${i}`,
        merchantReference: `cart-${i}-1`,
        at: now - 20 * 3_600_000 + i * 60_000,
      }));
      const { handed, summary, lists } = await sweep(now, charges, (rows) =>
        (order === 'newest first' ? rows.reverse() : rows).slice(0, 100),
      );
      assert.equal(handed.size, 350, JSON.stringify(summary));
      assert.ok([...handed.values()].every((n) => n === 1));
      assert.equal(summary.gatewayCalls, lists());
      assert.ok(lists() < 60, `${lists()} list calls`);
    });
});
