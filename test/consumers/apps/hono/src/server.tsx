// Hono on Node: the checkout handler on /api/checkout/*, the client address from the socket, and a
// server-rendered page with the drop-in. PORT from the environment; prints its URL once listening.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { checkout } from './checkout.js';

const require = createRequire(import.meta.url);

const app = new Hono();

app.all('/api/checkout/*', (c) =>
  checkout()(c.req.raw, { clientAddress: getConnInfo(c).remote.address }),
);

// The script-tag file and the files it loads from beside itself (3-D Secure, Afrikaans).
for (const file of ['pg-checkout.js', 'pg-checkout.3ds.js', 'pg-checkout.af.js']) {
  const script = readFileSync(require.resolve(`@pg-checkout/elements/${file}`));
  app.get(`/${file}`, (c) => c.body(script, 200, { 'content-type': 'text/javascript' }));
}

app.get('/', (c) =>
  c.html(
    <html lang="en">
      <head>
        <title>Checkout</title>
        <script type="module" src="/pg-checkout.js"></script>
      </head>
      <body>
        <pg-checkout endpoint="/api/checkout" methods="card"></pg-checkout>
      </body>
    </html>,
  ),
);

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' }, (info) =>
  console.log(`listening on http://127.0.0.1:${info.port}`),
);
