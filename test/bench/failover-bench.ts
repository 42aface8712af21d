/**
 * Sentinel failover under load with Sentinel's default timing (down-after-milliseconds 30 s):
 * two middleware instances on one Sentinel-managed primary (1 replica, 3 sentinels), 10
 * connections paying by card, the primary SIGKILLed once; then every answer is checked against
 * the sandbox's records. `npm test` runs the same scenario with a 1 s down-after.
 */
import { createSandbox } from '@pg-checkout/sandbox';
import { RedisStore } from '@pg-checkout/express';
import { startSandboxApp } from '@pg-checkout/test-helpers/sandbox-app';
import { startSentinel } from '@pg-checkout/test-helpers/redis-sentinel';
import { audit, payUnderLoad, type Audit } from '@pg-checkout/test-helpers/checkout-load';

export interface FailoverRun {
  downAfterMs: string;
  /** From the kill until every sentinel named the promoted replica. */
  failoverMs: number;
  seconds: number;
  audit: Audit;
}

export async function benchFailover(downAfterMs?: number): Promise<FailoverRun> {
  const sentinel = await startSentinel(downAfterMs === undefined ? {} : { downAfterMs });
  const sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
  const instance = () => ({
    store: new RedisStore({
      client: sentinel.client({ maxRetriesPerRequest: 2, failoverDetector: true }),
    }),
  });
  const apps = [
    await startSandboxApp(instance(), 5_000, sandbox),
    await startSandboxApp(instance(), 5_000, sandbox),
  ];
  try {
    const started = Date.now();
    let failoverMs = 0;
    const done = (async () => {
      await new Promise((r) => setTimeout(r, 3_000));
      const old = await sentinel.killPrimary();
      const killedAt = Date.now();
      await sentinel.waitForFailover(old, 120_000);
      failoverMs = Date.now() - killedAt;
      await new Promise((r) => setTimeout(r, 5_000));
    })();
    const results = await payUnderLoad(apps, {
      connections: 10,
      stop: done,
      prefix: `failover-${Date.now()}`,
      twinEvery: 10,
    });
    await done;
    const seconds = (Date.now() - started) / 1000;
    return {
      downAfterMs: downAfterMs === undefined ? '30,000 (default)' : String(downAfterMs),
      failoverMs,
      seconds,
      audit: await audit(apps, sandbox.url, results),
    };
  } finally {
    for (const app of apps) await app.close();
    await sandbox.close();
    await sentinel.stop();
  }
}
