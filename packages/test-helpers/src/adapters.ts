import { describe } from 'node:test';
import type { Request as ExpressRequest } from 'express';

/** The two ways a shop serves the checkout: the Express router, or the Fetch handler. */
export type Adapter = 'express' | 'fetch';

const chosen = process.env.PG_ADAPTER;
if (chosen !== undefined && chosen !== 'express' && chosen !== 'fetch')
  throw new Error(`PG_ADAPTER=${chosen}: say express or fetch (or leave it unset for both)`);

/** The adapters the core's HTTP suite runs over: both, or the one `PG_ADAPTER` names. */
export const ADAPTERS: readonly Adapter[] = chosen ? [chosen] : ['express', 'fetch'];

/**
 * Runs a suite once per adapter, each in its own `describe`. `only` narrows it for a suite whose
 * subject is not HTTP (a load, a store failover), which runs once, still under `PG_ADAPTER`.
 */
export function overAdapters(suite: (adapter: Adapter) => void, only?: Adapter): void {
  const adapters = only ? ADAPTERS.filter((a) => a === only || chosen !== undefined) : ADAPTERS;
  for (const adapter of adapters)
    describe(adapter === 'express' ? 'over the Express router' : 'over the Fetch handler', () =>
      suite(adapter),
    );
}

/** The request a merchant's hook gets from either adapter. */
export type AnyRequest = ExpressRequest | Request;

/** A request header as a hook reads it, whichever adapter handed the request over. */
export const header = (req: AnyRequest, name: string): string | undefined =>
  req instanceof Request ? (req.headers.get(name) ?? undefined) : req.get(name);

/**
 * Two instances of one shop, one per adapter (both the one `PG_ADAPTER` names): a payment started
 * on the Express router finishes on the Fetch handler, so a suite whose subject is the store
 * (Redis, a failover, a load) covers both adapters in one run.
 */
export const adapterPair = (): [Adapter, Adapter] =>
  chosen ? [chosen, chosen] : ['express', 'fetch'];
