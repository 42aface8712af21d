import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Sandbox } from '@pg-checkout/sandbox';
import type { CheckoutStore } from '../../../src/index.js';
import { startSandboxApp, type SandboxApp } from '@pg-checkout/test-helpers/sandbox-app';
import type { Adapter } from '@pg-checkout/test-helpers/adapters';
import { challengeAcrossInstances } from './checkout-flows.js';
import { startTestSandbox } from '@pg-checkout/test-helpers/sandbox';

/** A suite whose subject is a store under load: a hang (a request that never answers) fails the file instead of stalling the run. */
export const UNDER_LOAD = { timeout: 180_000 };

/** What an instance logged at warn or error. */
export interface Logged {
  message: string;
  fields?: unknown;
}

/** One shop against one sandbox, its parts set by the suite's `before()`. */
export interface SandboxShop<S> {
  /** The store's servers (a Redis Cluster, a Sentinel set), started first and stopped last. */
  servers: S;
  sandbox: Sandbox;
  /** One instance per adapter asked for, in that order. */
  apps: SandboxApp[];
  /** References the instances' `onPaymentCompleted` got, in order. */
  completed: string[];
  logged: Logged[];
}

/**
 * Before the suite: the store's `servers` (if any), a sandbox, then an instance of the shop per
 * adapter, each with the store `store(servers)` hands it (its own client, or one shared store).
 * After it, the same in reverse.
 */
export function sandboxShop<S extends { stop(): Promise<void> } | undefined = undefined>(setup: {
  adapters: readonly Adapter[];
  store: (servers: S) => CheckoutStore;
  servers?: () => Promise<S>;
}): SandboxShop<S> {
  const shop = { apps: [], completed: [], logged: [] } as unknown as SandboxShop<S>;
  const log = (message: string, fields?: unknown) => void shop.logged.push({ message, fields });
  before(async () => {
    shop.servers = (await setup.servers?.()) as S;
    shop.sandbox = await startTestSandbox();
    for (const adapter of setup.adapters) {
      const options = {
        store: setup.store(shop.servers),
        onPaymentCompleted: (e: { reference: string }) => void shop.completed.push(e.reference),
        logger: { info: () => undefined, warn: log, error: log },
      };
      shop.apps.push(await startSandboxApp(options, 5_000, shop.sandbox, adapter));
    }
  });
  after(async () => {
    for (const app of shop.apps) await app.close();
    await shop.sandbox?.close();
    await shop.servers?.stop();
  });
  return shop;
}

/**
 * A full 3-D Secure v2 challenge started on the shop's first instance and finished on its second
 * (`challengeAcrossInstances`); checks the shop was told of the payment once.
 */
export async function challengeAcrossShop(shop: SandboxShop<unknown>): Promise<string> {
  const reference = await challengeAcrossInstances(shop.apps[0]!, shop.apps[1]!);
  assert.deepEqual(
    shop.completed.filter((r) => r === reference),
    [reference],
  );
  return reference;
}
