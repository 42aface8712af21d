import type { CheckoutOrder } from '../options.js';
import type { Context } from '../setup/context.js';
import { parseOrder } from './schemas.js';

/**
 * Who is asking, as the use cases see it: what the adapter checked of the request (its client
 * address, the page origin) and the merchant's hooks bound to that request. The use cases never
 * see the request itself; the hooks run at most once per request, and only when a use case asks.
 */
export interface Caller {
  /** The client's IP address, checked (an address is required before any limited route runs). */
  clientIp: string;
  /** The page a state-changing call came from, once the origin guard allowed it. */
  pageOrigin: string | undefined;
  /** `resolveOrder(req)`, checked: a broken order is the merchant's bug, not the shopper's. */
  order(): Promise<CheckoutOrder>;
  /** `savedCards.shopperId(req)`: who is signed in, `undefined` for nobody (or no saved cards). */
  shopperId(): Promise<string | undefined>;
  /** `savedCards.maySaveCard(req)`; default: any identified shopper. */
  maySaveCard(): Promise<boolean>;
}

const once = <T>(make: () => Promise<T>): (() => Promise<T>) => {
  let value: Promise<T> | undefined;
  return () => (value ??= make());
};

/** Binds the merchant's hooks to the adapter's request. */
export function callerOf(
  ctx: Context,
  request: unknown,
  checked: { clientIp: string; pageOrigin: string | undefined },
): Caller {
  const hooks = ctx.options.savedCards;
  return {
    ...checked,
    order: once(async () => parseOrder(await ctx.options.resolveOrder(request))),
    shopperId: once(async () => {
      if (!hooks) return undefined;
      const id: unknown = await hooks.shopperId(request);
      return typeof id === 'string' && id.length > 0 && id.length <= 200 ? id : undefined;
    }),
    maySaveCard: once(async () =>
      hooks?.maySaveCard ? Boolean(await hooks.maySaveCard(request)) : true,
    ),
  };
}
