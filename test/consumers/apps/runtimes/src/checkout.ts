// The shop's checkout, the same on Workers, Bun and Deno: nothing here needs Node.
import { createCheckoutHandler, MemoryStore, type CheckoutStore } from '@pg-checkout/server';

export interface Settings {
  gatewayUrl: string;
  token: string;
  secret: string;
  /** e.g. https://shop.example/api/checkout: the handler answers under its path. */
  publicUrl: string;
  /** The test serves plain http on 127.0.0.1; production insists on https. */
  environment: 'development' | 'production';
  store?: CheckoutStore;
}

export function checkout(settings: Settings) {
  return createCheckoutHandler({
    gateway: { baseUrl: settings.gatewayUrl, token: settings.token, secret: settings.secret },
    publicUrl: settings.publicUrl,
    environment: settings.environment,
    store: settings.store ?? new MemoryStore(),
    resolveOrder: () => ({
      amount: 12_345,
      currency: 'ZAR',
      reference: `order-${crypto.randomUUID()}`,
    }),
  });
}

/** The shop's page: the drop-in, loaded from a CDN in a real shop (not fetched by the test). */
export const PAGE = `<!doctype html><html lang="en"><head><title>Checkout</title>
<script type="module" src="https://cdn.example/@pg-checkout/elements/pg-checkout.js"></script></head>
<body><pg-checkout endpoint="/api/checkout" methods="card"></pg-checkout></body></html>`;

/** Serves the page at `/` and the checkout under /api/checkout. */
export async function route(
  request: Request,
  handler: ReturnType<typeof checkout>,
  clientAddress: string | undefined,
): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname === '/') return new Response(PAGE, { headers: { 'content-type': 'text/html' } });
  return handler(request, { clientAddress });
}
