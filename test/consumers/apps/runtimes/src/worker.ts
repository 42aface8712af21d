// Cloudflare Workers, with or without nodejs_compat (the same bundle): the handler made on the first
// request (Workers allow no timers or random numbers at global scope), the client address from
// Cloudflare's own header.
import { checkout, route } from './checkout.js';
import { DurableObjectStore, type CheckoutStoreObject } from './durable-object-store.js';

// A Worker exports the Durable Object classes its bindings name.
export { CheckoutStoreObject } from './durable-object-store.js';

interface Env {
  PG_GATEWAY_URL: string;
  PG_GATEWAY_TOKEN: string;
  PG_GATEWAY_SECRET: string;
  PG_PUBLIC_URL: string;
  /** Bound when the shop keeps the checkout's state in Durable Objects; else one isolate's memory. */
  CHECKOUT_STORE?: DurableObjectNamespace<CheckoutStoreObject>;
}

let handler: ReturnType<typeof checkout> | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    // For the test: what Node globals this Worker sees (none, without nodejs_compat).
    if (new URL(request.url).pathname === '/runtime') {
      const scope = globalThis as Record<string, unknown>;
      const process = scope.process as { getBuiltinModule?: unknown } | undefined;
      return Response.json({
        process: typeof scope.process,
        Buffer: typeof scope.Buffer,
        getBuiltinModule: typeof process?.getBuiltinModule,
      });
    }
    handler ??= checkout({
      gatewayUrl: env.PG_GATEWAY_URL,
      token: env.PG_GATEWAY_TOKEN,
      secret: env.PG_GATEWAY_SECRET,
      publicUrl: env.PG_PUBLIC_URL,
      environment: 'development',
      ...(env.CHECKOUT_STORE ? { store: new DurableObjectStore(env.CHECKOUT_STORE) } : {}),
    });
    return route(request, handler, request.headers.get('cf-connecting-ip') ?? undefined);
  },
} satisfies ExportedHandler<Env>;
