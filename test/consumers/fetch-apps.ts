// The Fetch API frameworks' apps (Next.js, SvelteKit, Nuxt, Hono, React Router): one sandbox for all,
// each app's production server started on a free port of 127.0.0.1, and payments over plain HTTP as
// the drop-in sends them (the bank's side of 3-D Secure played by the server tests' helpers).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { completeChallenge, runMethodStep } from '@pg-checkout/test-helpers/bank';
import { cardBody } from '@pg-checkout/test-helpers/cards';
import { callJson } from '@pg-checkout/test-helpers/fetch-server';

export interface Gateway {
  url: string;
  token: string;
  secret: string;
}

export interface RunningApp {
  url: string;
  stop(): Promise<void>;
}

/** A port nothing listens on right now (frameworks' start commands want a number, not 0). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts `command` in `dir` with the checkout's settings in its environment (PORT, HOST and the
 * handler's PG_* variables) and resolves once `GET /` answers.
 */
export async function startApp(
  dir: string,
  command: string,
  args: string[],
  gateway: Gateway,
  env: NodeJS.ProcessEnv = {},
  port?: number,
): Promise<RunningApp> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(command, args, {
    cwd: dir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PG_GATEWAY_URL: gateway.url,
      PG_GATEWAY_TOKEN: gateway.token,
      PG_GATEWAY_SECRET: gateway.secret,
      PG_PUBLIC_URL: `${url}/api/checkout`,
      PG_ENVIRONMENT: 'development',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} exited (${child.exitCode}):\n${out}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return { url, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`${command} in ${dir} did not answer on ${url}:\n${out}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** The server-rendered page at `path`, with the drop-in's markup in it. */
export async function ssrPage(app: RunningApp, path = '/'): Promise<string> {
  const response = await fetch(`${app.url}${path}`);
  const html = await response.text();
  assert.equal(response.status, 200, html.slice(0, 2000));
  assert.match(html, /<pg-checkout[\s>]/, 'the page is rendered on the server with <pg-checkout>');
  return html;
}

const call = (
  app: RunningApp,
  method: string,
  path: string,
  payload?: unknown,
  headers?: Record<string, string>,
) => callJson(app.url, method, path, payload, headers);

/**
 * Pays `card` through the app's checkout route: the order for display, the payment, and for
 * 4000…3063 the 3-D Secure v2 method step, Step 2, the challenge (code 1234) and the bank's post
 * to the app's callback. Resolves with the payment's final status as the app reports it.
 */
export async function payOverHttp(app: RunningApp, card: string): Promise<string> {
  const config = await call(app, 'GET', '/api/checkout/config');
  assert.equal(config.status, 200, JSON.stringify(config.body));
  assert.equal(config.body.amount, 12_345);
  const created = await call(app, 'POST', '/api/checkout/payments', cardBody(card));
  assert.equal(created.status, 200, JSON.stringify(created.body));
  if (!created.body.threeDS) return created.body.status;
  assert.equal(created.body.threeDS.step, 'method', JSON.stringify(created.body));
  await runMethodStep(created.body.threeDS.methodUrl);
  const secret = { 'x-pg-client-secret': created.body.clientSecret };
  const confirm = new URL(created.body.threeDS.confirmUrl);
  assert.equal(confirm.origin, app.url, 'the confirm URL is the app’s own');
  const step2 = await call(app, 'POST', confirm.pathname, {}, secret);
  assert.equal(step2.body.threeDS?.step, 'challenge', JSON.stringify(step2.body));
  const page = await completeChallenge(step2.body.threeDS, '1234');
  assert.ok(page.url.startsWith(`${app.url}/api/checkout/`), `the bank posts back to ${page.url}`);
  assert.equal(page.status, 200, page.html.slice(0, 2000));
  assert.match(page.html, /3ds-complete/);
  const status = await call(
    app,
    'GET',
    `/api/checkout/payments/${created.body.reference}`,
    undefined,
    secret,
  );
  return status.body.status;
}
