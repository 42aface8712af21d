// Koa 3: the checkout handler on /api/checkout/*, with the body left to it (Koa reads none by itself;
// the handler reads and limits it, and a webhook's hash covers its exact bytes) and the client address
// from the socket; a page with the drop-in on /. PORT from the environment; prints its URL once listening.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { checkout } from './checkout.js';

const require = createRequire(import.meta.url);
const app = new Koa(); // behind your proxy: app.proxy = true, then ctx.ip is the client's

app.use(async (ctx, next) => {
  if (!ctx.path.startsWith('/api/checkout/')) return next();
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.headers))
    if (value !== undefined) headers.set(name, String(value));
  const hasBody = ctx.method !== 'GET' && ctx.method !== 'HEAD';
  const response = await checkout()(
    new Request(ctx.href, {
      method: ctx.method,
      headers,
      ...(hasBody ? { body: Readable.toWeb(ctx.req) as ReadableStream, duplex: 'half' } : {}),
    }),
    { clientAddress: ctx.ip },
  );
  ctx.status = response.status;
  response.headers.forEach((value, name) => ctx.set(name, value));
  ctx.body = Buffer.from(await response.arrayBuffer());
});

// The script-tag file and the files it loads from beside itself (3-D Secure, Afrikaans).
const scripts = new Map(
  ['pg-checkout.js', 'pg-checkout.3ds.js', 'pg-checkout.af.js'].map((file) => [
    `/${file}`,
    readFileSync(require.resolve(`@pg-checkout/elements/${file}`)),
  ]),
);

app.use((ctx) => {
  const script = scripts.get(ctx.path);
  if (script) {
    ctx.type = 'text/javascript';
    ctx.body = script;
  } else if (ctx.path === '/') {
    ctx.type = 'text/html';
    ctx.body =
      '<!doctype html><html lang="en"><head><title>Checkout</title>' +
      '<script type="module" src="/pg-checkout.js"></script></head>' +
      '<body><pg-checkout endpoint="/api/checkout" methods="card"></pg-checkout></body></html>';
  }
});

const port = Number(process.env.PORT ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
