import { createElement as h } from 'react';
import type { PgCheckout as Component } from '../src/index.js';

/** A merchant's checkout page, rendered by the server (server.ts's components) and hydrated (index.ts's). */
export function App({ PgCheckout }: { PgCheckout: typeof Component }) {
  return h(
    'main',
    null,
    h('h1', null, 'Checkout'),
    h(PgCheckout, {
      endpoint: '/checkout',
      locale: 'af',
      methods: 'card',
      onApproved: () => undefined,
    }),
    h('p', { id: 'below' }, 'Below the drop-in'),
  );
}
