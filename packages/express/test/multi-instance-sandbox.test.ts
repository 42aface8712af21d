import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { RedisStore } from '../src/index.js';
import {
  bankAnswer,
  runMethodStep,
  startSandboxApp,
  type SandboxApp,
} from './helpers/sandbox-app.js';
import { startRedis, type TestRedis } from './helpers/redis-server.js';

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
  one = await startSandboxApp(shared(), 5_000, sandbox);
  two = await startSandboxApp(shared(), 5_000, sandbox);
});
after(async () => {
  await one.close();
  await two.close();
  await sandbox.close();
  await redis.stop();
});

const onTwo = (url: string) => url.replace(one.url, two.url);

describe('two instances sharing Redis, against the sandbox', () => {
  it('v2 started on one, method, Step 2 and the bank posts through both: confirmed once, approved', async () => {
    const created = await one.post('/payments', {
      card: {
        number: '4000000000003063',
        cardHolder: 'Two Boxes',
        expiryMonth: 12,
        expiryYear: 2031,
        cvv: '123',
        type: 'visa',
      },
      screenWidth: 1280,
      screenHeight: 800,
    });
    const action = created.body.threeDS;
    assert.equal(action.step, 'method');
    await runMethodStep(onTwo(action.methodUrl));
    const step2 = await two.post(onTwo(action.confirmUrl), {});
    assert.equal(step2.body.threeDS.step, 'challenge');
    const hop = await bankAnswer(step2.body.threeDS, '1234');
    const post = (url: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(hop.fields).toString(),
      });
    const pages = await Promise.all([
      post(hop.action),
      post(onTwo(hop.action)),
      post(onTwo(hop.action)),
    ]);
    for (const page of pages) {
      assert.equal(page.status, 200);
      assert.match(await page.text(), /3ds-complete/);
    }
    assert.equal((await one.get(`/payments/${created.body.reference}`)).body.status, 'approved');
    assert.equal((await two.get(`/payments/${created.body.reference}`)).body.status, 'approved');
    assert.equal((await one.record(created.body.reference)).status, 'SETTLED');
    assert.deepEqual(
      completed.filter((r) => r === created.body.reference),
      [created.body.reference],
    );
  });
});
