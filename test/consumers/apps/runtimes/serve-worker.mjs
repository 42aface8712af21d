// Runs dist/worker.js in workerd through Miniflare, with no compatibility flags (no nodejs_compat), or
// with `nodejs_compat` when PG_NODEJS_COMPAT=1 (the flag Hono's and OpenNext's templates set), on
// 127.0.0.1:$PORT; the checkout's settings from the environment become the Worker's bindings.
import { Miniflare } from 'miniflare';

const mf = new Miniflare({
  modules: true,
  scriptPath: 'dist/worker.js',
  compatibilityDate: '2026-07-01',
  compatibilityFlags: process.env.PG_NODEJS_COMPAT === '1' ? ['nodejs_compat'] : [],
  host: '127.0.0.1',
  port: Number(process.env.PORT),
  bindings: {
    PG_GATEWAY_URL: process.env.PG_GATEWAY_URL,
    PG_GATEWAY_TOKEN: process.env.PG_GATEWAY_TOKEN,
    PG_GATEWAY_SECRET: process.env.PG_GATEWAY_SECRET,
    PG_PUBLIC_URL: process.env.PG_PUBLIC_URL,
  },
  ...(process.env.PG_STORE === 'durable-object'
    ? {
        durableObjects: {
          CHECKOUT_STORE: { className: 'CheckoutStoreObject', useSQLite: true },
        },
      }
    : {}),
});
console.log(`listening on ${await mf.ready}`);
for (const signal of ['SIGTERM', 'SIGINT'])
  process.on(signal, () => mf.dispose().finally(() => process.exit(0)));
