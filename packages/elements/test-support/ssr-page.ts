/**
 * A merchant's server-rendered checkout page in a real browser: the markup of `@lit-labs/ssr`, served with
 * a chosen Content-Security-Policy, a stand-in `GET /checkout/config`, and the elements' client (Lit's
 * hydration support first, then the elements) bundled by esbuild, loaded only when the test says so, so
 * that it can act on the page before hydration.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';

const elements = fileURLToPath(new URL('..', import.meta.url));

/** The elements' client as a page of a merchant loads it for hydration, as one ES module. */
export async function bundleClient(): Promise<string> {
  const result = await build({
    stdin: {
      contents: `import '@lit-labs/ssr-client/lit-element-hydrate-support.js';\nimport './src/index.ts';`,
      resolveDir: elements,
      sourcefile: 'client.ts',
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    // Workspace packages from their source, as the elements' build reads them: a fresh clone has no dist/.
    conditions: ['browser', 'pg-source'],
    tsconfig: `${elements}tsconfig.json`,
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0]!.text;
}

export interface SsrPage {
  url: string;
  /** Sets what `/` answers: the page's body markup and its CSP header. */
  serve(body: string, csp: string): void;
  close(): Promise<void>;
}

export async function startSsrPage(client: string): Promise<SsrPage> {
  let page = { body: '', csp: '' };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': page.csp,
      });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title>
        </head><body><main>${page.body}</main></body></html>`);
    } else if (path === '/client.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(client);
    } else if (path === '/checkout/config') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, amount: 12345, currency: 'ZAR', methods: ['card'] }));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    serve: (body, csp) => (page = { body, csp }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Records the page's CSP violations (in `window.__violations`) from before its first script. */
export async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { __violations: seen });
    document.addEventListener(
      'securitypolicyviolation',
      (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`),
      true,
    );
  });
}

export const violations = (page: Page) =>
  page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);

/** Loads the client (hydration) and waits until every pg-* element in the page has updated. */
export async function hydrate(page: Page): Promise<void> {
  await page.addScriptTag({ url: '/client.js', type: 'module' });
  await page.evaluate(async () => {
    await customElements.whenDefined('pg-checkout');
    for (const el of document.querySelectorAll('pg-checkout, pg-card-form'))
      await (el as HTMLElement & { updateComplete: Promise<boolean> }).updateComplete;
  });
}
