import { FakeGateway } from '@pg-checkout/test-helpers/fake-gateway';
import { cardBody } from '@pg-checkout/test-helpers/cards';
import { callerOf } from '../../src/setup/caller.js';
import { createContext } from '../../src/setup/context.js';
import { validateOptions } from '../../src/setup/validate-options.js';
import { payByCard } from '../../src/use-cases/pay-by-card.js';
import type { CheckoutOptions, CheckoutOrder } from '../../src/options.js';
import type { CheckoutStore } from '../../src/stores/store.js';

export const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The total a page showed on Pay. */
type Shown = { amount: number; currency: string };

/**
 * The core without HTTP, as a use-case test drives it: a context over `store` and a FakeGateway
 * (rate limits off, nothing logged) with `options` on top, a caller from the shop's page, and
 * `pay(number)` through payByCard with the shared test card.
 */
export function coreHarness<Store extends CheckoutStore>(setup: {
  store: Store;
  resolveOrder: () => CheckoutOrder;
  gateway?: FakeGateway;
  // The hooks take the adapter's request, which the core only passes through.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  options?: Partial<CheckoutOptions<any>>;
  now?: () => number;
}) {
  const { store, resolveOrder, gateway = new FakeGateway() } = setup;
  const ctx = createContext(
    validateOptions({
      gateway,
      store,
      sessionSecret: 's'.repeat(32),
      webhookSecret: 'whsec',
      publicUrl: 'https://shop.test/checkout',
      resolveOrder,
      rateLimit: false,
      logger: silent,
      ...setup.options,
    }),
    setup.now ? { now: setup.now } : {},
  );
  const caller = () =>
    callerOf(ctx, null, { clientIp: '198.51.100.7', pageOrigin: 'https://shop.test' });
  const pay = (number: string, shown?: Shown) =>
    payByCard(cardBody(number, {}, shown ? { shown } : {}), caller(), ctx);
  return { ctx, store, gateway, caller, pay };
}
