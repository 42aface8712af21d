import type { PaymentState } from '../api/types.js';

/** Where the test runner's backend listens (see test-support/backend-plugin.mjs). */
export interface TestBackend {
  url: string;
  /** The mock's second origin, where `public` cards' completion pages are served. */
  publicUrl: string;
  endpoint: string;
  kind: 'mock' | 'real';
}

let cached: Promise<TestBackend> | undefined;

export function backend(): Promise<TestBackend> {
  cached ??= fetch('/__pg-backend.json').then((r) => r.json() as Promise<TestBackend>);
  return cached;
}

/** The backend's record of a payment (mock only), for timing and form assertions. */
export async function record(reference: string): Promise<Record<string, unknown>> {
  const { url } = await backend();
  return (await fetch(`${url}/_test/payments/${reference}`)).json() as Promise<
    Record<string, unknown>
  >;
}

/** The gateway decides a payment (mock only) without any completion page: only a status read can tell. */
export async function decide(
  reference: string,
  outcome: 'approve' | 'decline' | 'pending' = 'approve',
): Promise<void> {
  const { url } = await backend();
  await fetch(`${url}/_test/payments/${reference}/finish?outcome=${outcome}`, { method: 'POST' });
}

export async function createPayment(number: string): Promise<PaymentState> {
  const { endpoint } = await backend();
  const year = new Date().getFullYear() + 2;
  const response = await fetch(`${endpoint}/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      card: {
        number,
        cardHolder: 'Jo Soap',
        expiryMonth: 8,
        expiryYear: year,
        cvv: '123',
        type: 'visa',
      },
      screenWidth: 1280,
      screenHeight: 800,
    }),
  });
  return response.json() as Promise<PaymentState>;
}

/**
 * Resolves once `check()` holds. The wait is generous (10 s): a condition met in milliseconds on an
 * idle machine can take seconds when CI's two cores are busy, and only a stuck one should fail.
 * The error is made here, so its stack names the test line that waited, with how long it did.
 */
export function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  const failure = new Error(`condition not met in ${timeoutMs} ms: ${String(check)}`);
  return new Promise((resolve, reject) => {
    const tick = () => {
      if (check()) return resolve();
      if (Date.now() - started > timeoutMs) return reject(failure);
      setTimeout(tick, 20);
    };
    tick();
  });
}
