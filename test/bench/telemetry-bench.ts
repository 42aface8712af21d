/**
 * What OpenTelemetry costs the checkout: CPU per card payment of createCheckout with telemetry off,
 * with the API installed and no SDK, with the SDK and in-memory exporters, and with the Prometheus
 * exporter, each in its own process, rounds alternating so all see the same machine load.
 */
import { fileURLToPath } from 'node:url';
import { startChild, type Child } from './lib/child.js';
import { TELEMETRY_MODES, type TelemetryMode } from './lib/telemetry-setup.js';
import { load, type Load } from './overhead.js';
import type { SandboxReady } from './sandbox-bench.js';

const CONNECTIONS = 10;
const ROUND_SECONDS = 4;
const ROUNDS = 7;

type Round = Record<TelemetryMode, Load>;

export async function benchTelemetry(sandbox: Child<SandboxReady>) {
  const apps = {} as Record<TelemetryMode, Child<{ url: string }>>;
  try {
    for (const mode of TELEMETRY_MODES)
      apps[mode] = await startChild<{ url: string }>(
        fileURLToPath(new URL('./lib/app-child.ts', import.meta.url)),
        {
          SANDBOX_URL: sandbox.ready.url,
          PG_TOKEN: sandbox.ready.token,
          PG_SECRET: sandbox.ready.secret,
          APP_MODE: 'express',
          TELEMETRY: mode,
        },
      );
    for (const mode of TELEMETRY_MODES) await load(apps[mode], 2, CONNECTIONS);
    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const r = {} as Round;
      // A different mode goes first each round: none always runs on the warmest machine.
      const order = TELEMETRY_MODES.map(
        (_, i) => TELEMETRY_MODES[(i + round) % TELEMETRY_MODES.length]!,
      );
      for (const mode of order) r[mode] = await load(apps[mode], ROUND_SECONDS, CONNECTIONS);
      rounds.push(r);
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!;
    return TELEMETRY_MODES.map((mode) => ({
      mode,
      cpuMs: median(rounds.map((r) => r[mode].cpuMs)),
      rps: median(rounds.map((r) => r[mode].rps)),
      p50: median(rounds.map((r) => r[mode].p50)),
      bad: rounds.reduce((n, r) => n + r[mode].bad, 0),
      /** CPU per payment against telemetry off, within each round. */
      ratio: median(rounds.map((r) => r[mode].cpuMs / r.off.cpuMs)),
      rounds: rounds.length,
    }));
  } finally {
    for (const app of Object.values(apps)) await app.close();
  }
}
