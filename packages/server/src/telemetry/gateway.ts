import type { CheckoutGateway } from '../gateway/port.js';
import { classifyGatewayError } from '../gateway/failures.js';
import type { Telemetry } from './telemetry.js';

/** A failed call's bounded type: how the core reads it (declined, outcome_unknown, ...). */
const judge = (error: unknown) => classifyGatewayError(error).kind;

type Methods = Record<PropertyKey, unknown>;

/** `target`'s methods, each call measured as `<prefix><method>`; everything else as it is. */
function measured<T extends object>(
  target: T,
  prefix: string,
  telemetry: Telemetry,
  depth: number,
): T {
  const cache = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key) as unknown;
      if (typeof key === 'symbol') return value;
      if (cache.has(key)) return cache.get(key);
      let wrapped = value;
      if (typeof value === 'function') {
        const operation = `${prefix}${key}`;
        wrapped = (...args: unknown[]) =>
          telemetry.gatewayCall(
            operation,
            () => (value as (...a: unknown[]) => Promise<unknown>).apply(object, args),
            judge,
          );
      } else if (depth > 0 && value && typeof value === 'object')
        wrapped = measured(value as Methods, `${key}.`, telemetry, depth - 1);
      cache.set(key, wrapped);
      return wrapped;
    },
  });
}

/**
 * The gateway the core calls, each call measured under its method's name (`payments.create`,
 * `lookups.payment`, `reconcile`, and any method a later version adds). Arguments and answers
 * pass through untouched and unread.
 */
export function instrumentGateway(gateway: CheckoutGateway, telemetry: Telemetry): CheckoutGateway {
  return measured(gateway, '', telemetry, 1);
}
