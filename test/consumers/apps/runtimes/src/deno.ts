// Deno.serve: the client address from the connection's info.
import { checkout, route } from './checkout.ts';

const env = (name: string) => Deno.env.get(name) ?? '';
const handler = checkout({
  gatewayUrl: env('PG_GATEWAY_URL'),
  token: env('PG_GATEWAY_TOKEN'),
  secret: env('PG_GATEWAY_SECRET'),
  publicUrl: env('PG_PUBLIC_URL'),
  environment: 'development',
});

Deno.serve({ hostname: '127.0.0.1', port: Number(env('PORT')) }, (request, info) =>
  route(request, handler, info.remoteAddr.hostname),
);
