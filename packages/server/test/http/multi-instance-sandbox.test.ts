import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { RedisStore } from '../../src/index.js';
import { startSandboxApp, type SandboxApp } from '@pg-checkout/test-helpers/sandbox-app';
import { challengeAcrossInstances } from './helpers/checkout-flows.js';
import { startRedis, type TestRedis } from '@pg-checkout/test-helpers/redis-server';
import { adapterPair } from '@pg-checkout/test-helpers/adapters';

// One instance on the Express router, the other on the Fetch handler, sharing the store.
const [first, second] = adapterPair();

let redis: TestRedis;
let sandbox: Sandbox;
let one: SandboxApp;
let two: SandboxApp;
const completed: string[] = [];
before(async () => {
  redis = await startRedis();
  sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  const shared = () => ({
    store: new RedisStore({ client: redis.client(), prefix: 'shop:' }),
    onPaymentCompleted: (e: { reference: string }) => void completed.push(e.reference),
  });
  one = await startSandboxApp(shared(), 5_000, sandbox, first);
  two = await startSandboxApp(shared(), 5_000, sandbox, second);
});
after(async () => {
  await one.close();
  await two.close();
  await sandbox.close();
  await redis.stop();
});

describe('two instances sharing Redis, against the sandbox', () => {
  it('v2 started on one, method, Step 2 and the bank posts through both: confirmed once, approved', async () => {
    const reference = await challengeAcrossInstances(one, two);
    assert.deepEqual(
      completed.filter((r) => r === reference),
      [reference],
    );
  });
});
