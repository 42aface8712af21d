// Bun.serve: the client address from the server's requestIP.
import { checkout, route } from './checkout.js';

const env = (name: string) => Bun.env[name] ?? '';
const handler = checkout({
  gatewayUrl: env('PG_GATEWAY_URL'),
  token: env('PG_GATEWAY_TOKEN'),
  secret: env('PG_GATEWAY_SECRET'),
  publicUrl: env('PG_PUBLIC_URL'),
  environment: 'development',
});

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(env('PORT')),
  fetch: (request, server) => route(request, handler, server.requestIP(request)?.address),
});
console.log(`listening on ${server.url}`);
