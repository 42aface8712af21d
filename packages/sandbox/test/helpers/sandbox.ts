/* eslint-disable @typescript-eslint/no-explicit-any -- test answers are read loosely, field by field */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { GatewayClient } from '@pg-checkout/node';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/index.js';

export interface Harness {
  sandbox: Sandbox;
  client: GatewayClient;
  /** Signed request with an exact body string, for cases the typed client refuses to send. */
  raw(method: 'GET' | 'POST', path: string, body?: string, opts?: RawOptions): Promise<RawAnswer>;
  /** Unsigned JSON call to the inspection API. */
  inspect(path: string, body?: unknown): Promise<Record<string, any>>;
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

export interface RawOptions {
  secret?: string;
  token?: string;
  signUrl?: string;
  signBody?: string;
  signature?: string | null;
  headers?: Record<string, string>;
}

export interface RawAnswer {
  status: number;
  json: Record<string, any>;
}

export function sign(url: string, body: string | undefined, secret: string): string {
  const data = (body === undefined ? url : `${url}\n${body}`).trim();
  return createHmac('sha256', secret).update(data).digest('hex');
}

export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await createSandbox({ port: 0, host: '127.0.0.1', ...options });
  const client = new GatewayClient({
    token: sandbox.token,
    secret: sandbox.secret,
    baseUrl: sandbox.url,
    timeoutMs: 5_000,
    retries: 0,
  });
  const raw = async (
    method: 'GET' | 'POST',
    path: string,
    body?: string,
    o: RawOptions = {},
  ): Promise<RawAnswer> => {
    const url = sandbox.url + path;
    const signature =
      o.signature === undefined
        ? sign(
            o.signUrl ?? url,
            method === 'GET' ? undefined : (o.signBody ?? body ?? ''),
            o.secret ?? sandbox.secret,
          )
        : o.signature;
    const headers: Record<string, string> = { 'x-token': o.token ?? sandbox.token, ...o.headers };
    if (signature !== null) headers['x-signature'] = signature;
    if (method === 'POST') headers['content-type'] = 'application/json';
    const res = await fetch(url, {
      method,
      headers,
      body: method === 'POST' ? (body ?? '') : null,
    });
    const text = await res.text();
    let json: Record<string, any>;
    try {
      json = JSON.parse(text) as Record<string, any>;
    } catch {
      json = { text };
    }
    return { status: res.status, json };
  };
  const inspect = async (path: string, body?: unknown): Promise<Record<string, any>> => {
    const res = await fetch(sandbox.url + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
    return { status: res.status, ...((await res.json()) as Record<string, any>) };
  };
  return {
    sandbox,
    client,
    raw,
    inspect,
    async advance(ms) {
      await inspect('/_sandbox/clock', { advanceMs: ms });
    },
    close: () => sandbox.close(),
  };
}

/**
 * A refusal as the gateway's own clients read it: HTTP 200, success false, a message, the code and
 * the originalErrorCode (fin030 malformed, fin025 unknown, fin058 not allowed now, fin094 duplicate).
 */
export function assertRefused(
  res: RawAnswer,
  originalErrorCode: string | undefined,
  code = -1,
  status = 200,
): void {
  const body = JSON.stringify(res.json);
  assert.equal(res.status, status, body);
  assert.equal(res.json.success, false, body);
  assert.equal(typeof res.json.message, 'string', body);
  assert.ok(res.json.message.length > 0, body);
  assert.equal(res.json.code, code, body);
  assert.equal(res.json.originalErrorCode, originalErrorCode, body);
}

let seq = 0;
/** A merchant reference unique within the test run. */
export const ref = (prefix = 'order'): string => `${prefix}-${process.pid}-${++seq}`;

export const YEAR = new Date().getUTCFullYear() + 2;

export function card(number: string, extra: Record<string, unknown> = {}): Record<string, any> {
  const type = number.startsWith('4')
    ? 'visa'
    : number.startsWith('37') || number.startsWith('34')
      ? 'amex'
      : number.startsWith('30') || number.startsWith('36')
        ? 'diners'
        : 'mastercard';
  return {
    number,
    cardHolder: 'Test Shopper',
    expiryMonth: 12,
    expiryYear: YEAR,
    cvv: type === 'amex' ? '1234' : '123',
    type,
    ...extra,
  };
}

/** A v2 create request body with the browser fields Visa needs. */
export function createBody(
  number: string,
  extra: Record<string, unknown> = {},
): Record<string, any> {
  return {
    creditCard: card(number),
    transaction: { reference: ref(), currency: 'ZAR', amount: 10_000 },
    clientIp: '127.0.0.1',
    screenWidth: '1280',
    screenHeight: '800',
    ...extra,
  };
}
