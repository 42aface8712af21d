import type { PgCardForm } from '../card-form/card-form.component.js';
import type { PgCheckout } from '../checkout/checkout.component.js';

/**
 * One scripted answer of the fake middleware. `lost`: the request reached the shop and its answer
 * never came back (fetch rejects, as it does when the connection drops).
 */
export type Answer = Response | 'lost';

export const json = (body: unknown, status = 200) => Response.json(body, { status });

let shops = 0;
// Test files share the origin's storage (the drop-in marks an endpoint it paid at): one mount per file's shop.
const run = Math.random().toString(36).slice(2, 8);

/**
 * A fake middleware on the page's own origin, answering as docs/contracts.md has it: fetch to its
 * `mount` is answered here, each route (`POST /payments`) with the next answer of its list (the last
 * one repeats), an unknown route 404 `not_found`. `GET /config` is a ZAR 149,00 order with card and
 * EFT unless the test gives it. Every call is kept with its JSON body; `restore` puts fetch back.
 */
export function fakeShop(routes: Record<string, Answer[]>) {
  const mount = `/fake-shop-${run}-${(shops += 1)}`;
  const calls: { route: string; body: unknown }[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const path = new URL(String(input), location.href).pathname;
    if (!path.startsWith(`${mount}/`)) return realFetch(input, init);
    const route = `${init?.method ?? 'GET'} ${path.slice(mount.length)}`;
    calls.push({ route, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const list = routes[route] ?? [json({ success: false, code: 'not_found', message: '' }, 404)];
    const answer = list.length > 1 ? list.shift()! : list[0]!;
    if (answer === 'lost') throw new TypeError('Failed to fetch');
    return answer.clone();
  };
  routes['GET /config'] ??= [
    json({
      success: true,
      amount: 14900,
      currency: 'ZAR',
      methods: ['card', 'eft'],
      savedCards: false,
    }),
  ];
  const count = (route: string) => calls.filter((c) => c.route === route).length;
  return { mount, calls, count, restore: () => (globalThis.fetch = realFetch) };
}

/** The drop-in's inner card form. */
export const form = (el: PgCheckout) => el.shadowRoot!.querySelector('pg-card-form') as PgCardForm;
export const part = (el: PgCheckout, name: string) =>
  el.shadowRoot!.querySelector<HTMLElement>(`[part=${name}]`);
/** What the drop-in says, as a screen reader reads it. */
export const message = (el: PgCheckout) => part(el, 'message')!.textContent!.trim();

/** What the shopper can act on besides the message: visible Pay, "Try again", other methods. */
export const actions = (el: PgCheckout) => ({
  pay: !!part(el, 'card') && !part(el, 'card')!.hidden,
  retry: !!part(el, 'retry'),
  methods: !!part(el, 'methods'),
});
export const none = { pay: false, retry: false, methods: false };
