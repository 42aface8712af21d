/**
 * Middleware CPU per card payment in one process: the Fetch handler, the core, MemoryStore and the
 * gateway client (signing included), the gateway answered in memory through the client's `fetch`.
 * CPU time, not throughput, so a busy machine moves it less than the overhead part.
 */
import { GatewayClient } from '@pg-checkout/node';
import { createCheckoutHandler, type CheckoutOptions } from '@pg-checkout/server';
import type { CheckoutPackages } from './lib/bundle-tree.js';
import { cardBody } from '@pg-checkout/test-helpers/cards';

const WARM_UP = 2_000;
const PER_ROUND = 4_000;
const ROUNDS = 5;

const json = (body: unknown) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }),
  );

/**
 * One approved card payment through a checkout built from `packages` (this tree's by default) with
 * `extra` options (a hook, telemetry), answered by the in-memory gateway.
 */
export function checkoutPayer(
  packages: CheckoutPackages = { createCheckoutHandler, GatewayClient },
  extra: Partial<CheckoutOptions> = {},
): () => Promise<void> {
  let n = 0;
  // The create approves; the lookup before it finds nothing (the sandbox's fin025).
  const gatewayFetch = ((input: string | URL | Request, init?: RequestInit) =>
    init?.method === 'POST' && String(input).endsWith('/payment/create')
      ? json({
          success: true,
          code: 1,
          message: 'Approved',
          reference: `PG-${++n}`,
          transactionDate: '2026-11-23T09:00:00',
          originalErrorCode: 'fin000',
        })
      : json({
          success: false,
          code: -1,
          message: 'No transaction found',
          originalErrorCode: 'fin025',
        })) as typeof fetch;
  const handler = packages.createCheckoutHandler({
    gateway: new packages.GatewayClient({
      baseUrl: 'https://gateway.example',
      token: 'bench-token',
      secret: 'bench-secret',
      fetch: gatewayFetch,
    }),
    sessionSecret: 'k'.repeat(32),
    webhookSecret: 'bench-secret',
    publicUrl: 'https://shop.example/api/checkout',
    environment: 'development',
    rateLimit: false,
    resolveOrder: () => ({ amount: 12_345, currency: 'ZAR', reference: `order-${++n}` }),
    ...extra,
  });
  const body = JSON.stringify(cardBody('4111111111111111'));
  const pay = async () => {
    const response = await handler(
      new Request('https://shop.example/api/checkout/payments', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://shop.example' },
        body,
      }),
      { clientAddress: '203.0.113.7' },
    );
    const answer = (await response.json()) as { status?: string };
    if (answer.status !== 'approved') throw new Error(`not approved: ${JSON.stringify(answer)}`);
  };
  return pay;
}

export async function benchMiddlewareCpu(): Promise<{ msPerPayment: number; rounds: number[] }> {
  const pay = checkoutPayer();
  for (let i = 0; i < WARM_UP; i++) await pay();
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const before = process.cpuUsage();
    for (let i = 0; i < PER_ROUND; i++) await pay();
    const used = process.cpuUsage(before);
    rounds.push((used.user + used.system) / 1000 / PER_ROUND);
  }
  const sorted = [...rounds].sort((a, b) => a - b);
  return { msPerPayment: sorted[ROUNDS >> 1]!, rounds };
}
