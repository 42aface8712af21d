import type { CheckoutOrder, PaymentMethodKind } from '../options.js';
import type { Context } from './context.js';
import { parseOrder } from './order-schema.js';

/**
 * Who is asking, as the use cases see it: what the adapter checked of the request (its client
 * address, the page origin) and the merchant's hooks bound to that request. The use cases never
 * see the request itself; the hooks run at most once per request (`resolveOrder` once per method
 * asked), and only when a use case asks.
 */
export interface Caller {
  /** The client's IP address, checked (an address is required before any limited route runs). */
  clientIp: string;
  /** The page a state-changing call came from, once the origin guard allowed it. */
  pageOrigin: string | undefined;
  /**
   * `resolveOrder(req, { method })`, checked: a broken order is the merchant's bug, not the
   * shopper's. `method` is the one the request is about (`undefined`: none chosen yet).
   */
  order(method: PaymentMethodKind | undefined): Promise<CheckoutOrder>;
  /** `savedCards.shopperId(req)`: who is signed in, `undefined` for nobody (or no saved cards). */
  shopperId(): Promise<string | undefined>;
  /** `savedCards.maySaveCard(req)`; default: any identified shopper. */
  maySaveCard(): Promise<boolean>;
}

const once = <T>(make: () => Promise<T>): (() => Promise<T>) => {
  let value: Promise<T> | undefined;
  return () => (value ??= make());
};

/** Asked once per method: a request about one method never runs `resolveOrder` twice. */
const oncePer = <K, T>(make: (key: K) => Promise<T>): ((key: K) => Promise<T>) => {
  const values = new Map<K, Promise<T>>();
  return (key) => {
    let value = values.get(key);
    if (!value) values.set(key, (value = make(key)));
    return value;
  };
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
    order: oncePer(async (method) =>
      parseOrder(await ctx.options.resolveOrder(request, { method })),
    ),
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
