import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startDemo, type RunningDemo } from '../src/app.js';
import { cardBody as card } from '@pg-checkout/test-helpers/cards';

// Debian's `prometheus` package (.ci/run installs it); PROMETHEUS_PATH points elsewhere.
const PROMETHEUS = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
const skip = existsSync(PROMETHEUS)
  ? undefined
  : `no Prometheus server at ${PROMETHEUS} (apt-get install prometheus, or set PROMETHEUS_PATH)`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
}

describe('Prometheus scrapes the demo shop', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'pg-checkout-prometheus-'));
  let demo: RunningDemo;
  let prometheus: ChildProcess | undefined;
  let prometheusUrl: string;
  const output: string[] = [];

  before(async () => {
    demo = await startDemo({
      port: 0,
      host: '127.0.0.1',
      sandboxPort: 0,
      trustProxy: 'loopback',
      database: { kind: 'pglite', dir: join(dir, 'shop') },
      rateLimitPerIp: false,
      metrics: {},
      log: () => undefined,
    });
    const shop = new URL(demo.url.replace('localhost', '127.0.0.1'));
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    writeFileSync(
      join(dir, 'prometheus.yml'),
      `global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: pg-checkout-demo
    metrics_path: /metrics
    static_configs:
      - targets: ['${shop.host}']
`,
    );
    prometheus = spawn(
      PROMETHEUS,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    for (const stream of [prometheus.stdout!, prometheus.stderr!])
      stream.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    await waitFor('Prometheus ready', async () =>
      (await fetch(`${prometheusUrl}/-/ready`)).ok ? true : undefined,
    );
  });

  after(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    await demo?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const query = async (promql: string): Promise<number | undefined> => {
    const response = await fetch(
      `${prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`,
    );
    const body = (await response.json()) as {
      status: string;
      data: { result: { value: [number, string] }[] };
    };
    assert.equal(body.status, 'success');
    const value = body.data.result[0]?.value[1];
    return value === undefined ? undefined : Number(value);
  };

  test('the approval rate of a few payments, through a PromQL query', async () => {
    const shop = demo.url.replace('localhost', '127.0.0.1');
    const cards = ['4111111111111111', '5555555555554444', '4111111111111111', '4000000000000002'];
    for (const number of cards) {
      // No cookie: each payment is a new shopper with an order of its own.
      const response = await fetch(`${shop}/checkout/payments`, {
        method: 'POST',
        headers: { origin: shop, 'content-type': 'application/json' },
        body: JSON.stringify(card(number)),
      });
      await response.arrayBuffer();
      assert.equal(response.status, number === '4000000000000002' ? 402 : 200);
    }
    const attempts = 'pg_checkout_payment_attempts_total';
    const approvalRate = `sum(${attempts}{pg_checkout_outcome="approved"}) / sum(${attempts}{pg_checkout_outcome=~"approved|declined|failed"})`;
    // Scraped every second: wait until Prometheus has seen all four.
    await waitFor(
      `Prometheus to see 4 payments (its log: ${output.join('').slice(-2000)})`,
      async () => ((await query(`sum(${attempts})`)) === 4 ? true : undefined),
    );
    assert.equal(await query(approvalRate), 0.75);
    assert.equal(await query(`sum(pg_checkout_orders_paid_total)`), 3);
    const p95 = await query(
      `histogram_quantile(0.95, sum by (le) (pg_checkout_gateway_call_duration_bucket{pg_checkout_gateway_operation="payments.create"}))`,
    );
    assert.ok(p95 !== undefined && p95 > 0 && p95 <= 30, `p95 ${p95}`);
    const target = await (await fetch(`${prometheusUrl}/api/v1/targets`)).json();
    assert.equal(
      (target as { data: { activeTargets: { health: string }[] } }).data.activeTargets[0]?.health,
      'up',
    );
  });
});
