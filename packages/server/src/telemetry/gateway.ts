import type { CheckoutGateway } from '../gateway/port.js';
import { classifyGatewayError } from '../gateway/failures.js';
import type { GatewayServer, Telemetry } from './telemetry.js';

/** A failed call's bounded type: how the core reads it (declined, outcome_unknown, ...). */
const judge = (error: unknown) => classifyGatewayError(error).kind;

type Methods = Record<PropertyKey, unknown>;

/** `target`'s methods, each call measured as `<prefix><method>`; everything else as it is. */
function measured<T extends object>(
  target: T,
  prefix: string,
  telemetry: Telemetry,
  depth: number,
  server: GatewayServer | undefined,
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
            server,
          );
      } else if (depth > 0 && value && typeof value === 'object')
        wrapped = measured(value as Methods, `${key}.`, telemetry, depth - 1, server);
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
  // A GatewayClient tells each HTTP exchange; the span of the call it belongs to takes its method and status.
  const observable = gateway as { onExchange?: (listener: (e: ExchangeSeen) => void) => unknown };
  if (typeof observable.onExchange === 'function')
    observable.onExchange((exchange) => telemetry.gatewayExchange(exchange));
  return measured(gateway, '', telemetry, 1, serverOf(gateway.baseUrl));
}

type ExchangeSeen = { method: string; status?: number; attempt: number };

/** `server.address` and `server.port` of a base URL (the port its scheme implies when none is written). */
function serverOf(baseUrl: string | undefined): GatewayServer | undefined {
  if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl)) return undefined;
  const url = new URL(baseUrl);
  return {
    address: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
  };
}
