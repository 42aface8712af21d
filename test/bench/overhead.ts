/**
 * Middleware overhead: createCheckout's card-payment route against the sandbox, beside a bare
 * node:http route sending the same payment straight from GatewayClient. Sandbox, app and load
 * generator each in their own process; rounds alternate so both see the same machine load.
 */
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startChild, type Child } from './lib/child.js';
import { quantile } from './lib/pool.js';
import type { SandboxReady } from './sandbox-bench.js';
import { cardBody } from '@pg-checkout/test-helpers/cards';

// 1 connection shows the latency a request adds; 10 load the machine for throughput.
export const LEVELS = [1, 10] as const;
const ROUND_SECONDS = 4;
const ROUNDS = 5;

const lib = (name: string) => fileURLToPath(new URL(`./lib/${name}`, import.meta.url));

const BODY = JSON.stringify(cardBody('4111111111111111'));

export interface Load {
  /** CPU ms the app process spent per answered request. */
  cpuMs: number;
  rps: number;
  p50: number;
  p99: number;
  bad: number;
}

/** One duration-bounded autocannon run; latencies kept at full (sub-ms) resolution. */
export async function load(
  app: Child<{ url: string }>,
  seconds: number,
  connections: number,
): Promise<Load> {
  const url = app.ready.url;
  const cpuBefore = await app.ask<number>('cpu');
  const latencies: number[] = [];
  const instance = autocannon({
    url: `${url}/payments`,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { 'content-type': 'application/json', origin: 'https://shop.test' },
    body: BODY,
  });
  let bad = 0;
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status === 200) latencies.push(ms);
    else bad++;
  });
  const result = await instance;
  const cpuMs = ((await app.ask<number>('cpu')) - cpuBefore) / Math.max(1, latencies.length);
  return {
    cpuMs,
    rps: latencies.length / result.duration,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    bad: bad + result.errors + result.timeouts,
  };
}

const ROUTES = ['bare', 'expressRoute', 'expressSameCalls', 'express'] as const;
type Route = (typeof ROUTES)[number];
type Round = Record<Route, Load>;

export async function benchOverhead(sandbox: Child<SandboxReady>) {
  const env = {
    SANDBOX_URL: sandbox.ready.url,
    PG_TOKEN: sandbox.ready.token,
    PG_SECRET: sandbox.ready.secret,
  };
  const mode: Record<Route, string> = {
    bare: 'bare',
    expressRoute: 'express-route',
    expressSameCalls: 'express-same-calls',
    express: 'express',
  };
  const apps = {} as Record<Route, Child<{ url: string }>>;
  try {
    for (const route of ROUTES)
      apps[route] = await startChild<{ url: string }>(lib('app-child.ts'), {
        ...env,
        APP_MODE: mode[route],
      });
    // Warm-up: JIT, keep-alive sockets, first-use caches on every side.
    for (const route of ROUTES) await load(apps[route], 2, 10);
    const levels = [];
    for (const connections of LEVELS) {
      const rounds: Round[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const r = {} as Round;
        for (const route of ROUTES) r[route] = await load(apps[route], ROUND_SECONDS, connections);
        rounds.push(r);
      }
      // Other work on the machine moves every side of a round alike: compare within rounds.
      const median = (pick: (r: Round) => number) =>
        rounds.map(pick).sort((a, b) => a - b)[rounds.length >> 1]!;
      const summary = (route: Route): Load => ({
        cpuMs: median((r) => r[route].cpuMs),
        rps: median((r) => r[route].rps),
        p50: median((r) => r[route].p50),
        p99: median((r) => r[route].p99),
        bad: rounds.reduce((n, r) => n + r[route].bad, 0),
      });
      levels.push({
        connections,
        bare: summary('bare'),
        expressRoute: summary('expressRoute'),
        expressSameCalls: summary('expressSameCalls'),
        express: summary('express'),
        /** createCheckout against the bare floor: the goal. */
        ratio: median((r) => r.express.rps / r.bare.rps),
        addedP50: median((r) => r.express.p50 - r.bare.p50),
        addedP99: median((r) => r.express.p99 - r.bare.p99),
        /** A plain Express route against the bare floor: Express's own share. */
        expressRouteRatio: median((r) => r.expressRoute.rps / r.bare.rps),
        expressRouteAddedP50: median((r) => r.expressRoute.p50 - r.bare.p50),
        /** createCheckout against a plain Express route making its gateway calls (lookup, create): like with like. */
        sameCallsRatio: median((r) => r.express.rps / r.expressSameCalls.rps),
        rounds: rounds.length,
      });
    }
    return levels;
  } finally {
    for (const app of Object.values(apps)) await app.close();
  }
}
