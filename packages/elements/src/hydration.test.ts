// First, before lit: LitElement takes up hydration support when it loads.
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import { expect } from '@open-wc/testing';
import type { ReactiveElement } from 'lit';
import type { PgCardForm } from './card-form/card-form.component.js';
import type { PgCheckout } from './checkout/checkout.component.js';
import { until as untilWithin } from './test-helpers/backend.js';
import { field, fillCard, typeInto } from './test-helpers/input.js';

/** Against the real middleware and sandbox, conditions get 15 s by default. */
const until = (check: () => boolean, ms = 15000) => untilWithin(check, ms);

// The page a merchant's server rendered with @lit-labs/ssr (test-support/ssr-render.ts: all four elements,
// endpoint "/checkout", locale "af"), hydrated here by the real elements against the real middleware.

const tags = ['pg-checkout', 'pg-card-form', 'pg-3ds-v2', 'pg-3ds-v1'] as const;

/**
 * The tree as the shopper gets it, shadow roots included: elements with sorted attributes, input values
 * and text. Leaves out comments (Lit's markers differ between server and client), the `<style>` the server
 * inlines where the client adopts the same sheets, and an input's `value` attribute, which the server
 * writes for a `.value` binding (the property is compared).
 */
function snapshot(node: Node): string {
  if (node instanceof Text) return node.data;
  if (!(node instanceof Element)) return '';
  if (node.localName === 'style') return '';
  const value = node instanceof HTMLInputElement ? ` .value="${node.value}"` : '';
  const attributes = [...node.attributes]
    .filter((a) => !(value && a.name === 'value'))
    .map((a) => `${a.name}="${a.value}"`)
    .sort()
    .join(' ');
  const shadow = node.shadowRoot ? `#shadow(${children(node.shadowRoot)})` : '';
  return `<${node.localName} ${attributes}${value}>${shadow}${children(node)}</${node.localName}>`;
}

const children = (parent: Node) => [...parent.childNodes].map(snapshot).join('');
const normalized = (root: Element) =>
  children(root).replace(/\s+/g, ' ').replace(/> </g, '><').replace(/ >/g, '>');

/** Equal, or a message that shows where they part (the whole trees are too long to read). */
function expectSame(hydrated: string, clientOnly: string): void {
  if (hydrated === clientOnly) return;
  let i = 0;
  while (hydrated[i] === clientOnly[i]) i += 1;
  const around = (s: string) => s.slice(Math.max(0, i - 200), i + 200);
  expect.fail(`hydrated: …${around(hydrated)}…\nclient-only: …${around(clientOnly)}…`);
}

const submitText = (form: PgCardForm) =>
  form.shadowRoot?.querySelector('button[type=submit]')?.textContent?.trim() ?? '';

async function pay(dropIn: PgCheckout, form: PgCardForm): Promise<void> {
  await fillCard(form, '4111111111111111');
  form.submit();
  await until(() => dropIn.status !== 'idle' && dropIn.status !== 'submitting', 30000);
  expect(dropIn.status).to.equal('approved');
}

describe('hydrating server-rendered elements', () => {
  const fetched: string[] = [];
  const problems: string[] = [];
  const realFetch = window.fetch;
  const { error, warn } = console;
  const onError = (e: ErrorEvent) => problems.push(`error: ${e.message}`);
  const onRejection = (e: PromiseRejectionEvent) => problems.push(`rejection: ${String(e.reason)}`);
  const containers: HTMLElement[] = [];

  before(() => {
    window.fetch = (input, init) => {
      fetched.push(
        new URL(String(input instanceof Request ? input.url : input), location.href).pathname,
      );
      return realFetch(input, init);
    };
    console.error = (...args: unknown[]) => {
      problems.push(`console.error: ${args.join(' ')}`);
      error(...args);
    };
    console.warn = (...args: unknown[]) => {
      problems.push(`console.warn: ${args.join(' ')}`);
      warn(...args);
    };
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onRejection);
  });

  after(() => {
    window.fetch = realFetch;
    Object.assign(console, { error, warn });
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
    for (const c of containers) c.remove();
  });

  it('leaves the same DOM as a client-only render, and the drop-in pays', async () => {
    const rendered = (await (await realFetch('/__ssr.json')).json()) as {
      html?: string;
      error?: string;
    };
    if (!rendered.html) throw new Error(`server rendering failed: ${rendered.error}`);

    // The server's page: declarative shadow roots, no element defined yet.
    const server = document.createElement('div');
    containers.push(server);
    server.setHTMLUnsafe(rendered.html);
    document.body.append(server);
    for (const tag of tags) expect(customElements.get(tag), tag).to.equal(undefined);
    const elements = [...server.querySelectorAll<ReactiveElement>(tags.join())];
    expect(elements.map((e) => e.localName)).to.deep.equal([
      'pg-checkout',
      'pg-checkout',
      'pg-card-form', // the second drop-in's own
      'pg-card-form',
      'pg-3ds-v2',
      'pg-3ds-v1',
    ]);
    for (const el of elements)
      expect(el.shadowRoot, `${el.localName} server-rendered`).to.be.instanceOf(ShadowRoot);
    const [dropIn, ownDropIn] = server.querySelectorAll('pg-checkout');
    const form = dropIn!.shadowRoot!.querySelector('pg-card-form')!;
    const own = ownDropIn!.querySelector('pg-card-form')!;
    for (const f of [form, own])
      expect(f.shadowRoot!.querySelector('label')?.textContent).to.equal('Kaartnommer');

    await import('./index.js');
    for (const el of elements) await el.updateComplete;
    await form.updateComplete;
    expect(form.hasAttribute('defer-hydration'), 'the inner form hydrated').to.equal(false);

    // The same light DOM, rendered on the client only (innerHTML attaches no declarative shadow root).
    const client = document.createElement('div');
    containers.push(client);
    client.innerHTML = rendered.html;
    for (const template of client.querySelectorAll('template')) template.remove();
    document.body.append(client);
    for (const el of client.querySelectorAll('pg-checkout')) await el.updateComplete;
    const clientForms = [...client.querySelectorAll('pg-checkout')].map(
      (d) => d.querySelector('pg-card-form') ?? d.shadowRoot!.querySelector('pg-card-form')!,
    );

    // All read /config (in the browser only) and show the amount; then they must not differ at all.
    await until(() => [form, own, ...clientForms].every((f) => /\d/.test(submitText(f))));
    expect(submitText(form)).to.match(/^Betaal /);
    expectSame(normalized(server), normalized(client));
    expect(fetched.filter((p) => p === '/checkout/config')).to.have.length(4);

    typeInto(field(form, 'number'), '4111111111111111');
    await form.updateComplete;
    expect(field(form, 'number').value).to.equal('4111 1111 1111 1111');
    expect(form.shadowRoot!.querySelector('[part=brand]'), 'brand detected').not.to.equal(null);
    await pay(dropIn!, form);
    // A card form of the merchant's own gets the drop-in's context once both are defined.
    await pay(ownDropIn!, own);
    expect(problems).to.deep.equal([]);
  });
});
