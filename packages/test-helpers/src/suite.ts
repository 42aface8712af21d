import { after, before } from 'node:test';
import type { Adapter, AnyRequest } from './adapters.js';
import { startApp, type TestApp, type TestOptions } from './checkout-app.js';
import type { FakeGateway } from './fake-gateway.js';
import { startSandboxApp, type SandboxApp } from './sandbox-app.js';
import type { CheckoutOptions } from '@pg-checkout/server';

/**
 * What `start()` resolves to, started in a `before()` hook of the suite this is called in and
 * closed in an `after()` one; the suite's tests use what this returns as the thing itself.
 * Hooks run in the order they are registered: a suite starts what `start` needs in a `before()`
 * above this call and stops it in an `after()` below it.
 */
export function forSuite<T extends { close(): unknown }>(start: () => Promise<T>): T {
  let started: T | undefined;
  before(async () => {
    started = await start();
  });
  after(async () => {
    await started?.close();
  });
  // A stand-in until before() has run: the suite's body holds it at once, its tests read it later.
  return new Proxy({} as T, {
    get(_, key) {
      if (started === undefined)
        throw new Error(`forSuite: \`${String(key)}\` read before the suite's before() hook`);
      const value: unknown = Reflect.get(started, key);
      return typeof value === 'function' ? value.bind(started) : value;
    },
  });
}

/** `startApp` over `adapter` (a suite run by `overAdapters`), for every test of the suite. */
export const appForSuite = (
  adapter: Adapter,
  overrides?: TestOptions,
  gateway?: FakeGateway,
  setup: Omit<NonNullable<Parameters<typeof startApp>[2]>, 'adapter'> = {},
): TestApp => forSuite(() => startApp(overrides, gateway, { ...setup, adapter }));

/** `startSandboxApp` over `adapter`, with a sandbox of its own, for every test of the suite. */
export const sandboxAppForSuite = (
  adapter: Adapter,
  overrides?: Partial<CheckoutOptions<AnyRequest>>,
  clientTimeoutMs?: number,
): SandboxApp => forSuite(() => startSandboxApp(overrides, clientTimeoutMs, undefined, adapter));
