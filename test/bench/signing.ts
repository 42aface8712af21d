/** Signing cost: signRequest over a 1 KB body beside a bare HMAC-SHA256 of the same string. */
import { createHmac } from 'node:crypto';
import { signRequest } from '@pg-checkout/node';

const ITERATIONS = 50_000;
const ROUNDS = 7;

function microsPerCall(fn: () => string): number {
  const started = process.hrtime.bigint();
  let sink = 0;
  for (let i = 0; i < ITERATIONS; i++) sink += fn().length;
  if (sink !== ITERATIONS * 64) throw new Error('a signature was not 64 hex characters');
  return Number(process.hrtime.bigint() - started) / 1000 / ITERATIONS;
}

// signRequest answers a promise (Web Crypto is asynchronous): each call is awaited, as the client does.
async function microsPerAwaitedCall(fn: () => Promise<string>): Promise<number> {
  const started = process.hrtime.bigint();
  let sink = 0;
  for (let i = 0; i < ITERATIONS; i++) sink += (await fn()).length;
  if (sink !== ITERATIONS * 64) throw new Error('a signature was not 64 hex characters');
  return Number(process.hrtime.bigint() - started) / 1000 / ITERATIONS;
}

export async function benchSigning() {
  const url = 'https://gateway.example/pg/api/v2/payment/create';
  const secret = 'sandbox-secret';
  const body = JSON.stringify({ pad: 'x'.repeat(1024 - 10) });
  if (Buffer.byteLength(body) !== 1024) throw new Error('the body must be 1 KB');
  const data = `${url}\n${body}`;
  if (
    (await signRequest(url, body, secret)) !==
    createHmac('sha256', secret).update(data).digest('hex')
  )
    throw new Error('signRequest and the bare HMAC disagree: they must sign the same string');
  const ours: number[] = [];
  const floor: number[] = [];
  // Alternating rounds so both see the same CPU conditions; medians discard outliers.
  for (let round = 0; round < ROUNDS; round++) {
    ours.push(await microsPerAwaitedCall(() => signRequest(url, body, secret)));
    floor.push(microsPerCall(() => createHmac('sha256', secret).update(data).digest('hex')));
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
  return { ours: median(ours), floor: median(floor) };
}
