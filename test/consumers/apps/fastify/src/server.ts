// Fastify 5: the checkout handler on /api/checkout/*, with the bodies left to it (it reads and limits
// them, and a webhook's hash covers its exact bytes) and the client address from the socket; a page
// with the drop-in on /. PORT from the environment; prints its URL once listening.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { checkout } from './checkout.js';

const require = createRequire(import.meta.url);
const app = Fastify(); // behind your proxy: Fastify({ trustProxy: 1 }), then request.ip is the client's

await app.register(async (api) => {
  api.removeAllContentTypeParsers();
  api.addContentTypeParser('*', (_request, _body, done) => done(null)); // left unread for the handler
  api.all('/api/checkout/*', async (request, reply) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers))
      if (value !== undefined) headers.set(name, String(value));
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const response = await checkout()(
      new Request(`${request.protocol}://${request.host}${request.url}`, {
        method: request.method,
        headers,
        ...(hasBody ? { body: Readable.toWeb(request.raw) as ReadableStream, duplex: 'half' } : {}),
      }),
      { clientAddress: request.ip },
    );
    reply.status(response.status).headers(Object.fromEntries(response.headers));
    return reply.send(Buffer.from(await response.arrayBuffer()));
  });
});

// The script-tag file and the files it loads from beside itself (3-D Secure, Afrikaans).
for (const file of ['pg-checkout.js', 'pg-checkout.3ds.js', 'pg-checkout.af.js']) {
  const script = readFileSync(require.resolve(`@pg-checkout/elements/${file}`));
  app.get(`/${file}`, (_request, reply) => reply.type('text/javascript').send(script));
}

app.get('/', (_request, reply) =>
  reply
    .type('text/html')
    .send(
      '<!doctype html><html lang="en"><head><title>Checkout</title>' +
        '<script type="module" src="/pg-checkout.js"></script></head>' +
        '<body><pg-checkout endpoint="/api/checkout" methods="card"></pg-checkout></body></html>',
    ),
);

const url = await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' });
console.log(`listening on ${url}`);
