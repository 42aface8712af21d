/**
 * Sandbox throughput: signed create, execute, refund and lookup requests from autocannon (the
 * lightest client there is, so the figure is the sandbox's), and its memory after the creates.
 */
import { createHmac } from 'node:crypto';
import autocannon from 'autocannon';
import type { Child } from './lib/child.js';
import type { Memory } from './lib/serve.js';

export interface SandboxReady {
  url: string;
  token: string;
  secret: string;
}

const CONNECTIONS = 20;

// autocannon builds each request synchronously; the gateway's signature, as signRequest computes it.
const sign = (url: string, body: string | undefined, secret: string) =>
  createHmac('sha256', secret)
    .update((body === undefined ? url : `${url}\n${body}`).trim(), 'utf8')
    .digest('hex');
const CREATES = Number(process.env.BENCH_SANDBOX_PAYMENTS ?? 100_000);
const CREATE_MAX_SECONDS = Number(process.env.BENCH_SANDBOX_SECONDS ?? 150);
const FOLLOW_UPS = 10_000;
const FOLLOW_UP_MAX_SECONDS = 30;

export interface PhaseResult {
  phase: string;
  done: number;
  seconds: number;
  perSecond: number;
  failed: number;
}

/** Sends up to `count` signed requests built by `build(i)`; stops early after `maxSeconds`. */
async function phase(
  sandbox: SandboxReady,
  name: string,
  count: number,
  maxSeconds: number,
  build: (i: number) => { method: 'GET' | 'POST'; path: string; body?: string },
  onOk?: (body: string) => void,
): Promise<PhaseResult> {
  let next = 0;
  let ok = 0;
  let failed = 0;
  const started = performance.now();
  // autocannon resolves on its one-second tick; the last answer marks the real end.
  let lastAnswer = started;
  const instance = autocannon({
    url: sandbox.url,
    connections: CONNECTIONS,
    amount: count,
    requests: [
      {
        // Spreading autocannon's own request keeps its host and port (the Host header that is signed).
        setupRequest: (request) => {
          const r = build(next++);
          return {
            ...request,
            method: r.method,
            path: r.path,
            headers: {
              'content-type': 'application/json',
              'x-token': sandbox.token,
              'x-signature': sign(`${sandbox.url}${r.path}`, r.body, sandbox.secret),
            },
            ...(r.body === undefined ? {} : { body: r.body }),
          };
        },
        onResponse: (status, body) => {
          lastAnswer = performance.now();
          const success = status === 200 && body.includes('"success":true');
          if (success) ok++;
          else failed++;
          if (success && onOk) onOk(body);
        },
      },
    ],
  });
  const stopper = setTimeout(() => instance.stop(), maxSeconds * 1000);
  await instance;
  clearTimeout(stopper);
  const seconds = (lastAnswer - started) / 1000;
  return { phase: name, done: ok, seconds, perSecond: ok / seconds, failed };
}

export async function benchSandbox(sandbox: Child<SandboxReady>) {
  const s = sandbox.ready;
  const before = await sandbox.ask<Memory>('mem');
  const run = `b${Date.now().toString(36)}`;
  const year = new Date().getUTCFullYear() + 3;
  const references: string[] = [];
  const create = await phase(
    s,
    'create (frictionless visa, authorize only)',
    CREATES,
    CREATE_MAX_SECONDS,
    (i) => ({
      method: 'POST',
      path: '/pg/api/v2/payment/create',
      body: JSON.stringify({
        creditCard: {
          number: '4111111111111111',
          cardHolder: 'Bench Tester',
          expiryMonth: 12,
          expiryYear: year,
          cvv: '123',
          type: 'visa',
        },
        transaction: { reference: `${run}-${i}`, currency: 'ZAR', amount: 10_000 },
        autoExecute: false,
        supports3dsV2: true,
        callbackUrl: 'https://shop.example/checkout/3ds/s/callback',
        clientIp: '203.0.113.7',
        screenWidth: '1280',
        screenHeight: '800',
      }),
    }),
    (body) => {
      if (references.length < FOLLOW_UPS) references.push(JSON.parse(body).reference as string);
    },
  );
  const after = await sandbox.ask<Memory>('mem');
  const n = references.length;
  const execute = await phase(s, 'execute (GET, full amount)', n, FOLLOW_UP_MAX_SECONDS, (i) => ({
    method: 'GET',
    path: `/pg/api/v2/payment/${references[i]}/execute`,
  }));
  const refund = await phase(s, 'refund (GET, full amount)', n, FOLLOW_UP_MAX_SECONDS, (i) => ({
    method: 'GET',
    path: `/pg/api/v2/payment/${references[i]}/refund`,
  }));
  const lookup = await phase(s, 'lookup by reference', n, FOLLOW_UP_MAX_SECONDS, (i) => ({
    method: 'GET',
    path: `/pg/api/v2/payment/${references[i]}`,
  }));
  return { phases: [create, execute, refund, lookup], before, after, payments: create.done };
}
