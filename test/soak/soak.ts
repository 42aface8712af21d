/**
 * `npm run soak`: 10,000 card payments through createCheckout and the sandbox at concurrency 50
 * while the sandbox injects timeouts, resets, 5xx and malformed JSON; then every payment is
 * reconciled against the sandbox's own records. Then the store-fault phase (store-faults.ts):
 * RedisStore on a redis-server SIGKILLed and restarted empty at random while shoppers pay, 3-D
 * Secure included, and press Pay again. Exits 1 on any violation.
 */
import { fileURLToPath } from 'node:url';
import { GatewayClient } from '@pg-checkout/node';
import { startChild } from '../bench/lib/child.js';
import { pool, table } from '../bench/lib/pool.js';
import type { Memory } from '../bench/lib/serve.js';
import { paymentBody, SOAK_CARDS, type SoakCard } from './cards.js';
import { reconcile, type Answer } from './reconcile.js';
import { DEFAULT_SEED } from './random.js';
import { runStoreFaultPhase } from './store-faults.js';

// One fixed seed unless SOAK_SEED names another: the children inherit it with the environment.
process.env.SOAK_SEED ??= String(DEFAULT_SEED);
const PAYMENTS = Number(process.env.SOAK_PAYMENTS ?? 10_000);
const WARMUP = Number(process.env.SOAK_WARMUP ?? 5_000);
const CONCURRENCY = 50;
const FAULT_RATE = Number(process.env.SOAK_FAULT_RATE ?? 0.04);
const CLIENT_TIMEOUT_MS = Number(process.env.SOAK_CLIENT_TIMEOUT_MS ?? 1_000);
const FAULT_HOLD_MS = 1_500;
// How long "not found" after a lost create still counts as unknown (60 s by default in
// createCheckout); shortened so the shoppers' retries below come after it, as a patient shopper's would.
const RECONCILE_GRACE_MS = 3_000;
// Heap growth allowed between the warmed-up and the final state (GC noise, JIT code).
const HEAP_GROWTH_LIMIT_MB = 8;

const lib = (name: string) => fileURLToPath(new URL(`../bench/lib/${name}`, import.meta.url));
const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);

// Interrupted, the soak still ends through process.exit, whose 'exit' hook kills the Redis servers.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

// `SOAK_PHASES=gateway` or `=store` runs one phase alone (both by default).
const PHASES = new Set((process.env.SOAK_PHASES ?? 'gateway,store').split(','));
// Each phase runs on every sandbox profile: the default one, and the strict one that answers the least
// helpful way the spec allows (a reused reference a new transaction, over-refunds taken, lists cut
// at 100 newest first, notifications late, twice, out of order or never). `SOAK_PROFILES=strict` picks one.
const PROFILES = (process.env.SOAK_PROFILES ?? 'default,strict').split(',');
for (const profile of PROFILES)
  if (profile !== 'default' && profile !== 'strict')
    throw new Error(`SOAK_PROFILES: unknown profile ${profile} (default, strict)`);
const allViolations: string[] = [];
console.log(`soak seed ${process.env.SOAK_SEED} (SOAK_SEED=... to draw another run)`);
const log = (line: string) => console.log(line);

for (const profile of PROFILES) {
  // The sandbox children read it (bench/lib/sandbox-child.ts).
  process.env.SANDBOX_PROFILE = profile;
  console.log(`\n===== sandbox profile: ${profile} =====`);
  const said = (violations: string[]) => violations.map((v) => `[${profile}] ${v}`);
  if (PHASES.has('gateway')) allViolations.push(...said(await gatewayPhase()));
  if (PHASES.has('store')) {
    console.log(
      `\n[${seconds()} s] store-fault phase (${profile}): RedisStore on a redis-server killed and restarted empty`,
    );
    allViolations.push(...said((await runStoreFaultPhase(log)).violations));
  }
}
console.log(`[${seconds()} s] soak done (profiles: ${PROFILES.join(', ')})`);
if (allViolations.length > 0) {
  console.log(`${allViolations.length} VIOLATION(S) in all:`);
  for (const v of allViolations.slice(0, 50)) console.log(`  - ${v}`);
  process.exitCode = 1;
} else {
  console.log('no violation in any phase');
}

async function gatewayPhase(): Promise<string[]> {
  const sandbox = await startChild<{ url: string; token: string; secret: string }>(
    lib('sandbox-child.ts'),
  );
  const app = await startChild<{ url: string }>(lib('app-child.ts'), {
    APP_MODE: 'express',
    SANDBOX_URL: sandbox.ready.url,
    PG_TOKEN: sandbox.ready.token,
    PG_SECRET: sandbox.ready.secret,
    CLIENT_TIMEOUT_MS: String(CLIENT_TIMEOUT_MS),
    RECONCILE_GRACE_MS: String(RECONCILE_GRACE_MS),
  });

  async function setFaults(rate: number): Promise<void> {
    const response = await fetch(`${sandbox.ready.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        rate,
        kinds: ['timeout', 'reset', '5xx', 'malformed'],
        holdMs: FAULT_HOLD_MS,
      }),
    });
    if (!response.ok)
      throw new Error(`sandbox faults: ${response.status} ${await response.text()}`);
  }

  async function pay(order: string, card: SoakCard): Promise<Answer> {
    const response = await fetch(`${app.ready.url}/payments`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: 'https://shop.test',
        'x-order': order,
      },
      body: paymentBody(card),
    });
    const text = await response.text();
    let body: Answer['body'];
    try {
      body = JSON.parse(text) as Answer['body'];
    } catch {
      body = {
        success: false,
        status: 'unparseable',
        code: `non-JSON answer (${text.length} bytes)`,
      };
    }
    return { http: response.status, body };
  }

  const orders = new Map<string, { card: SoakCard; first: Answer; final: Answer }>();
  async function run(prefix: string, count: number): Promise<void> {
    await pool(CONCURRENCY, count, async (i) => {
      const order = `${prefix}-${i}`;
      const card = SOAK_CARDS[i % SOAK_CARDS.length]!;
      const first = await pay(order, card);
      orders.set(order, { card, first, final: first });
    });
  }

  try {
    await run('warm', WARMUP);
    // Records live in the store for a day by design; expire them so the heap comparison finds leaks.
    const storeBefore = await app.ask<number>('storeSize');
    await app.ask<number>('expireStore');
    const before = await app.ask<Memory>('mem');
    console.log(`[${seconds()} s] warm-up: ${WARMUP} payments without faults`);

    await setFaults(FAULT_RATE);
    const loadStart = Date.now();
    await run('soak', PAYMENTS);
    const loadSeconds = (Date.now() - loadStart) / 1000;
    await setFaults(0);
    console.log(
      `[${seconds()} s] load: ${PAYMENTS} payments at concurrency ${CONCURRENCY}, ${FAULT_RATE * 100}% of gateway calls faulted`,
    );

    // Held answers are dropped after FAULT_HOLD_MS, and the last lost creates' grace period must
    // pass: let both go before asking again.
    await new Promise((r) => setTimeout(r, Math.max(FAULT_HOLD_MS, RECONCILE_GRACE_MS) + 500));
    // The shopper retries what failed for want of a gateway answer: it must never charge twice.
    const retried = [...orders.entries()].filter(([, o]) => o.first.http >= 500);
    await pool(CONCURRENCY, retried.length, async (i) => {
      const [order, o] = retried[i]!;
      o.final = await pay(order, o.card);
    });
    console.log(`[${seconds()} s] retried ${retried.length} payments that ended 502/503/504`);

    const storeAfter = await app.ask<number>('storeSize');
    const storeLeft = await app.ask<number>('expireStore');
    const after = await app.ask<Memory>('mem');
    const attempts = await app.ask<Record<string, string[]>>('attempts');
    const gateway = new GatewayClient({
      token: sandbox.ready.token,
      secret: sandbox.ready.secret,
      baseUrl: sandbox.ready.url,
    });
    const result = await reconcile(gateway, orders, attempts, CONCURRENCY);
    const sandboxMem = await sandbox.ask<Memory>('mem');
    console.log(`[${seconds()} s] reconciled ${orders.size} orders against the sandbox\n`);

    const soakOnly = [...orders.entries()].filter(([k]) => k.startsWith('soak-'));
    const tally = (pick: (a: Answer) => string) => {
      const counts = new Map<string, number>();
      for (const [, o] of soakOnly) counts.set(pick(o.first), (counts.get(pick(o.first)) ?? 0) + 1);
      return [...counts.entries()].sort((a, b) => b[1] - a[1]);
    };
    console.log(`First answers of the ${PAYMENTS} soak payments (HTTP status, state or code):`);
    table(
      ['answer', 'payments'],
      tally((a) => `${a.http} ${a.body.status ?? ''} ${a.body.code ?? ''}`.trim()),
    );
    console.log('Final outcome per order after the retries, checked against the sandbox:');
    table(
      ['outcome', 'orders'],
      [...result.outcomes.entries()].sort((a, b) => b[1] - a[1]),
    );
    const heapGrowth = after.heapUsedMb - before.heapUsedMb;
    table(
      ['figure', 'value'],
      [
        [
          'load phase',
          `${loadSeconds.toFixed(1)} s (${Math.round(PAYMENTS / loadSeconds)} payments/s)`,
        ],
        [
          'gateway attempts (creates sent; of them repeats of an unanswered reference)',
          `${result.attemptCount} (${result.repeatedCount})`,
        ],
        ['sandbox transactions found', result.transactionCount],
        [
          'middleware heap after GC, store entries expired: warmed up -> after',
          `${before.heapUsedMb} MB -> ${after.heapUsedMb} MB (${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(1)} MB)`,
        ],
        ['middleware RSS: warmed up -> after', `${before.rssMb} MB -> ${after.rssMb} MB`],
        [
          'middleware store entries: warmed up -> after (left once expired)',
          `${storeBefore} -> ${storeAfter} (${storeLeft})`,
        ],
        ['sandbox heap / RSS after', `${sandboxMem.heapUsedMb} MB / ${sandboxMem.rssMb} MB`],
        ['total wall time', `${seconds()} s`],
      ],
    );
    const violations = [...result.violations];
    if (heapGrowth > HEAP_GROWTH_LIMIT_MB)
      violations.push(
        `middleware heap grew ${heapGrowth.toFixed(1)} MB (limit ${HEAP_GROWTH_LIMIT_MB} MB)`,
      );
    if (violations.length > 0) {
      console.log(`${violations.length} VIOLATION(S):`);
      for (const v of violations.slice(0, 50)) console.log(`  - ${v}`);
    } else {
      console.log(
        'no violation: every payment accounted for once, none charged twice, no 5xx but gateway faults, heap flat',
      );
    }
    return violations;
  } finally {
    await app.close();
    await sandbox.close();
  }
}
