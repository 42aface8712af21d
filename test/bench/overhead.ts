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

// 1 connection shows the latency a request adds; 10 load the machine for throughput.
export const LEVELS = [1, 10] as const;
const ROUND_SECONDS = 4;
const ROUNDS = 5;

const lib = (name: string) => fileURLToPath(new URL(`./lib/${name}`, import.meta.url));

const BODY = JSON.stringify({
  card: {
    number: '4111111111111111',
    cardHolder: 'Bench Tester',
    expiryMonth: 12,
    expiryYear: new Date().getUTCFullYear() + 3,
    cvv: '123',
    type: 'visa',
  },
  screenWidth: 1280,
  screenHeight: 800,
});

export interface Load {
  /** CPU ms the app process spent per answered request. */
  cpuMs: number;
  rps: number;
  p50: number;
  p99: number;
  bad: number;
}

/** One duration-bounded autocannon run; latencies kept at full (sub-ms) resolution. */
async function load(
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

export async function benchOverhead(sandbox: Child<SandboxReady>) {
  const env = {
    SANDBOX_URL: sandbox.ready.url,
    PG_TOKEN: sandbox.ready.token,
    PG_SECRET: sandbox.ready.secret,
  };
  const express = await startChild<{ url: string }>(lib('app-child.ts'), {
    ...env,
    APP_MODE: 'express',
  });
  const bare = await startChild<{ url: string }>(lib('app-child.ts'), { ...env, APP_MODE: 'bare' });
  try {
    // Warm-up: JIT, keep-alive sockets, first-use caches on both sides.
    await load(bare, 2, 10);
    await load(express, 2, 10);
    const levels = [];
    for (const connections of LEVELS) {
      const rounds: { bare: Load; express: Load }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        rounds.push({
          bare: await load(bare, ROUND_SECONDS, connections),
          express: await load(express, ROUND_SECONDS, connections),
        });
      }
      // Other work on the machine moves both sides of a round alike: compare within rounds.
      const median = (pick: (r: { bare: Load; express: Load }) => number) =>
        rounds.map(pick).sort((a, b) => a - b)[rounds.length >> 1]!;
      levels.push({
        connections,
        bare: {
          cpuMs: median((r) => r.bare.cpuMs),
          rps: median((r) => r.bare.rps),
          p50: median((r) => r.bare.p50),
          p99: median((r) => r.bare.p99),
          bad: rounds.reduce((n, r) => n + r.bare.bad, 0),
        },
        express: {
          cpuMs: median((r) => r.express.cpuMs),
          rps: median((r) => r.express.rps),
          p50: median((r) => r.express.p50),
          p99: median((r) => r.express.p99),
          bad: rounds.reduce((n, r) => n + r.express.bad, 0),
        },
        ratio: median((r) => r.express.rps / r.bare.rps),
        addedP50: median((r) => r.express.p50 - r.bare.p50),
        addedP99: median((r) => r.express.p99 - r.bare.p99),
        rounds: rounds.length,
      });
    }
    return levels;
  } finally {
    await express.close();
    await bare.close();
  }
}
