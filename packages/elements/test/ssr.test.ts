import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { setImmediate } from 'node:timers/promises';
import { html } from 'lit';
import { renderToString } from '../test-support/ssr-render.js';

// Rendered on the server (Astro, Next, Eleventy, render() from @lit-labs/ssr) there is no page URL to
// resolve an endpoint against and no business calling the middleware: that happens in the browser.

let fetched: string[] = [];
const realFetch = globalThis.fetch;

beforeEach(() => {
  fetched = [];
  globalThis.fetch = (input: string | URL | Request) => {
    // Recorded as well as thrown: the API client turns a failed fetch into a `network_error` value.
    fetched.push(String(input));
    throw new Error(`fetch(${String(input)}) during server rendering`);
  };
});

afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Renders, lets any promise the render started run, and checks nothing went to the network. */
async function serverRender(template: ReturnType<typeof html>): Promise<string> {
  const markup = await renderToString(template);
  await setImmediate();
  assert.deepEqual(fetched, [], 'no request from the server');
  return markup;
}

/** The declarative shadow root of the first `tag` in `markup` (up to its closing template). */
function shadowOf(markup: string, tag: string): string {
  const start = markup.indexOf(`<${tag}`);
  assert.notEqual(start, -1, `<${tag}> rendered`);
  const root = markup.indexOf('<template shadowroot', start);
  assert.notEqual(root, -1, `<${tag}> has a declarative shadow root`);
  return markup.slice(root, markup.indexOf(`</${tag}>`, root));
}

describe('server rendering with @lit-labs/ssr', () => {
  it('renders the drop-in with a relative endpoint, its card form in its locale, without fetching', async () => {
    const markup = await serverRender(
      html`<pg-checkout endpoint="/checkout" locale="af"></pg-checkout>`,
    );
    const form = shadowOf(markup, 'pg-card-form');
    assert.match(form, /<form[^>]*lang="af"/);
    for (const text of ['Kaartnommer', 'Naam op kaart', 'Vervaldatum', 'Sekuriteitskode', 'Betaal'])
      assert.ok(form.includes(text), `the card form says ${text}`);
    for (const text of ['Card number', 'Name on card', '>Pay'])
      assert.ok(!form.includes(text), `no English ${text}`);
  });

  it('does not fetch /config from the server with an absolute endpoint either', async () => {
    await serverRender(
      html`<pg-checkout endpoint="https://shop.example/checkout" saved-cards></pg-checkout>`,
    );
  });

  it('hands the drop-in messages to its card form', async () => {
    const markup = await serverRender(
      html`<pg-checkout
        endpoint="/checkout"
        locale="af"
        .messages=${{ pay: 'Koop nou' }}
      ></pg-checkout>`,
    );
    assert.ok(shadowOf(markup, 'pg-card-form').includes('Koop nou'));
  });

  it('renders every element with the attributes the README shows', async () => {
    const markup = await serverRender(html`
      <pg-checkout
        endpoint="/checkout"
        locale="af-ZA"
        methods="card eft"
        saved-cards
        appearance="auto"
        method-timeout="3000"
        challenge-timeout="600000"
        poll-interval="2000"
      ></pg-checkout>
      <pg-card-form
        locale="af"
        allow-save
        busy
        submit-label="Betaal nou"
        appearance="dark"
      ></pg-card-form>
      <pg-3ds-v2
        endpoint="/checkout"
        locale="af"
        appearance="dark"
        method-timeout="3000"
        challenge-timeout="600000"
        poll-interval="2000"
      ></pg-3ds-v2>
      <pg-3ds-v1
        endpoint="/checkout"
        locale="af"
        appearance="dark"
        challenge-timeout="600000"
        poll-interval="2000"
      ></pg-3ds-v1>
    `);
    assert.ok(shadowOf(markup, 'pg-checkout').includes('Kaartnommer'));
    const standalone = markup.slice(markup.indexOf('</pg-checkout>'));
    const form = shadowOf(standalone, 'pg-card-form');
    assert.ok(form.includes('Stoor hierdie kaart vir volgende keer'), 'allow-save');
    assert.ok(form.includes('Verwerk…'), 'busy');
    for (const tag of ['pg-3ds-v2', 'pg-3ds-v1'])
      assert.match(shadowOf(markup, tag), /part="status"[^>]*lang="af"/);
  });
});
