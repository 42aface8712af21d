import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import express from 'express';
import { configFromEnv } from '../src/platform/config.js';
import { createDemoMetrics, type MetricsAccess } from '../src/platform/metrics/metrics.js';

const running: { server: Server; close: () => Promise<void> }[] = [];

async function serveMetrics(access: MetricsAccess): Promise<string> {
  const metrics = createDemoMetrics(access);
  const app = express();
  if (metrics.route) app.get('/metrics', metrics.route);
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push({ server, close: metrics.close });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
}

after(async () => {
  for (const { server, close } of running) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await close();
  }
});

describe('the demo shop’s /metrics', () => {
  test('is off unless METRICS or METRICS_TOKEN is set', async () => {
    assert.equal(configFromEnv({}).metrics, false);
    assert.equal(configFromEnv({ METRICS: 'off' }).metrics, false);
    assert.deepEqual(configFromEnv({ METRICS: '1' }).metrics, {});
    assert.deepEqual(configFromEnv({ METRICS_TOKEN: 'a-long-enough-secret' }).metrics, {
      token: 'a-long-enough-secret',
    });
    assert.throws(() => configFromEnv({ METRICS_TOKEN: 'short' }), /at least 16/);
    assert.throws(() => configFromEnv({ METRICS: 'yes please' }), /METRICS must be/);
    assert.equal((await fetch(await serveMetrics(false))).status, 404);
  });

  test('METRICS=1: loopback clients only, never through a proxy', async () => {
    const url = await serveMetrics({});
    const direct = await fetch(url);
    assert.equal(direct.status, 200);
    assert.match(await direct.text(), /# HELP|^$/m);
    const proxies: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9' },
    ];
    for (const header of proxies) {
      const proxied = await fetch(url, { headers: header });
      assert.equal(proxied.status, 403);
    }
  });

  test('METRICS_TOKEN: the bearer token, compared in constant time', async () => {
    const url = await serveMetrics({ token: 'a-long-enough-secret' });
    assert.equal((await fetch(url)).status, 401);
    assert.equal(
      (await fetch(url, { headers: { authorization: 'Bearer wrong-secret-of-same' } })).status,
      401,
    );
    const ok = await fetch(url, { headers: { authorization: 'Bearer a-long-enough-secret' } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('cache-control'), 'no-store');
  });
});
