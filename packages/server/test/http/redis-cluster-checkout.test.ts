import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { RedisStore } from '../../src/index.js';
import { startSandboxApp, type SandboxApp } from '@pg-checkout/test-helpers/sandbox-app';
import { startCluster, type TestCluster } from '@pg-checkout/test-helpers/redis-cluster';
import { audit, payUnderLoad } from '@pg-checkout/test-helpers/checkout-load';
import { challengeAcrossInstances } from './helpers/checkout-flows.js';
import { adapterPair } from '@pg-checkout/test-helpers/adapters';

// One instance on the Express router, the other on the Fetch handler, sharing the store.
const [first, second] = adapterPair();

let cluster: TestCluster;
let sandbox: Sandbox;
let one: SandboxApp;
let two: SandboxApp;
const completed: string[] = [];
const logged: string[] = [];
// What the middleware logs when a store call fails (CROSSSLOT, MOVED, a lost connection).
const storeErrors = () => logged.filter((line) => /store|CROSSSLOT|MOVED|slot|redis/i.test(line));
before(async () => {
  cluster = await startCluster(3);
  sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  const instance = () => ({
    store: new RedisStore({ client: cluster.cluster(), prefix: 'shop:' }),
    onPaymentCompleted: (e: { reference: string }) => void completed.push(e.reference),
    logger: {
      info: () => undefined,
      warn: (message: string, fields?: unknown) =>
        void logged.push(`${message} ${JSON.stringify(fields)}`),
      error: (message: string, fields?: unknown) =>
        void logged.push(`${message} ${JSON.stringify(fields)}`),
    },
  });
  one = await startSandboxApp(instance(), 5_000, sandbox, first);
  two = await startSandboxApp(instance(), 5_000, sandbox, second);
});
after(async () => {
  await one?.close();
  await two?.close();
  await sandbox?.close();
  await cluster?.stop();
});

describe(
  'checkout on a 3-master Redis Cluster, two instances',
  // A hang (a request that never answers) fails the file instead of stalling the run.
  { timeout: 180_000 },
  () => {
    it('takes a full 3-D Secure v2 challenge started on one instance and finished on the other', async () => {
      const reference = await challengeAcrossInstances(one, two);
      assert.deepEqual(
        completed.filter((r) => r === reference),
        [reference],
      );
      assert.deepEqual(storeErrors(), [], 'no store error (CROSSSLOT) logged');
    });

    it('charges each order once under 10 connections, twins included, with its keys spread over all masters', async () => {
      const results = await payUnderLoad([one, two], {
        connections: 10,
        stop: new Promise((r) => setTimeout(r, 2_000)),
        prefix: `cluster-${Date.now()}`,
        twinEvery: 5,
      });
      const report = await audit([one, two], sandbox.url, results);
      assert.ok(report.charged > 20, JSON.stringify(report));
      assert.deepEqual(report.chargedButFailed, []);
      assert.deepEqual(report.doubled, []);
      assert.deepEqual(report.approvedNotCharged, []);
      assert.deepEqual(report.notSettled, []);
      for (const label of Object.keys(report.answers))
        assert.match(label, /^(200 approved|409 conflict)$/, JSON.stringify(report.answers));
      const perNode = await Promise.all(cluster.ports.map((_, i) => cluster.node(i).dbsize()));
      assert.ok(
        perNode.every((n) => n > 0),
        `keys per master: ${perNode.join(', ')}`,
      );
      assert.deepEqual(storeErrors(), [], 'no store error (CROSSSLOT) logged');
    });
  },
);
