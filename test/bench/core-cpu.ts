/**
 * The middleware's own CPU per approved card payment, in one process, with an in-memory gateway
 * (no sockets, no sandbox): what the core costs, apart from the machine's load. Run it on two
 * trees to compare them:
 *   node --conditions=pg-source --import tsx test/bench/core-cpu.ts [payments] [hooks: 0|1]
 */
import {
  createCheckoutHandler,
  MemoryStore,
  type CheckoutGateway,
  type LookupRecord,
} from '@pg-checkout/server';
import { cardBody } from '@pg-checkout/test-helpers/cards';

const PAYMENTS = Number(process.argv[2] ?? 8_000);
const WARMUP = Math.round(PAYMENTS / 4);
const HOOKS = process.argv[3] === '1';

const charged = new Map<string, LookupRecord & { merchantReference: string }>();
let next = 0;
const notUsed = () => Promise.reject(new Error('not used by a frictionless payment'));
const gateway = {
  payments: {
    create: async (request: Record<string, unknown>) => {
      const txn = request.transaction as { reference: string; amount: number; currency: string };
      const reference = `MEM${++next}`;
      charged.set(txn.reference, {
        ...txn,
        merchantReference: txn.reference,
        reference,
        status: 'SETTLED',
      });
      return { kind: 'approved' as const, reference, message: 'Approved' };
    },
    // Frictionless payments only: never called.
    confirm3dsV1: notUsed,
    confirm3dsV2: notUsed,
    confirmStep2: notUsed,
  },
  lookups: { payment: notUsed, redirect: notUsed },
  reconcile: async (merchantReference: string) => {
    const record = charged.get(merchantReference);
    return record ? { found: true as const, record } : { found: false as const };
  },
} as unknown as CheckoutGateway;

const handler = createCheckoutHandler({
  gateway,
  webhookSecret: 'w'.repeat(32),
  publicUrl: 'http://127.0.0.1:1/checkout',
  store: new MemoryStore({ maxEntries: 1_000_000 }),
  rateLimit: false,
  resolveOrder: (request) => ({
    amount: 10_000,
    currency: 'ZAR',
    reference: request.headers.get('x-order')!,
  }),
  ...(HOOKS ? { onPaymentCompleted: async () => undefined } : {}),
  logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
});

const body = JSON.stringify(cardBody('4111111111111111'));

async function pay(i: number): Promise<void> {
  const response = await handler(
    new Request('http://127.0.0.1:1/checkout/payments', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: 'http://127.0.0.1:1',
        'x-order': `cpu-${i}`,
      },
      body,
    }),
    { clientAddress: '203.0.113.7' },
  );
  if (response.status !== 200)
    throw new Error(`payment ${i}: ${response.status} ${await response.text()}`);
}

for (let i = 0; i < WARMUP; i++) await pay(i);
const before = process.cpuUsage();
for (let i = WARMUP; i < WARMUP + PAYMENTS; i++) await pay(i);
const used = process.cpuUsage(before);
const ms = (used.user + used.system) / 1000 / PAYMENTS;
console.log(
  `${ms.toFixed(3)} ms CPU per payment (${PAYMENTS} payments, hooks ${HOOKS ? 'on' : 'off'})`,
);
(handler as { close?: () => void }).close?.(); // absent on trees before issue 26
