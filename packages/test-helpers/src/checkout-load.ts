import type { Answer, SandboxApp } from './sandbox-app.js';
import { cardBody } from './cards.js';

/** What one shopper's submit got back. */
export interface Submitted {
  order: string;
  instance: number;
  status: number;
  body: Answer;
  ms: number;
}

/** What the sandbox charged against what the shoppers were told, order by order. */
export interface Audit {
  orders: number;
  requests: number;
  /** Answers by HTTP status and `status`/`code`, e.g. `200 approved`, `503 store_unavailable`. */
  answers: Record<string, number>;
  /** Orders the gateway charged. */
  charged: number;
  /** Orders the gateway charged though no answer for them said `approved`. */
  chargedButFailed: string[];
  /** Orders the gateway charged more than once. */
  doubled: string[];
  /** Orders answered `approved` that the gateway never charged. */
  approvedNotCharged: string[];
  /**
   * Charged orders whose payment, read back once the store was back (GET with the client
   * secret), is not `approved`, or that a second submit charged again or answered with a failure.
   */
  notSettled: string[];
  /** Answers to that second submit of each charged order. */
  resubmitted: Record<string, number>;
}

export const CARD = cardBody('4111111111111111');

const label = (s: Submitted) =>
  [s.status, s.body?.status, s.body?.code].filter((part) => part !== undefined).join(' ');

/**
 * `connections` shoppers paying by card in a loop, each order once, alternating between
 * `apps`, until `stop` resolves; every `twinEvery`th order is also submitted to the next
 * instance at the same moment (two tabs), so "paid once" is put to the test too.
 */
export async function payUnderLoad(
  apps: SandboxApp[],
  options: { connections: number; stop: Promise<unknown>; prefix: string; twinEvery?: number },
): Promise<Submitted[]> {
  const results: Submitted[] = [];
  let stopped = false;
  void options.stop.then(() => (stopped = true));
  let next = 0;
  const submit = async (order: string, instance: number) => {
    const started = performance.now();
    let answer: { status: number; body: Answer };
    try {
      answer = await apps[instance]!.post('/payments', CARD, { 'x-order': order });
    } catch (error) {
      answer = { status: 0, body: { status: 'no-answer', code: String(error) } };
    }
    results.push({ order, instance, ...answer, ms: performance.now() - started });
  };
  const worker = async () => {
    while (!stopped) {
      const i = next++;
      const order = `${options.prefix}-${i}`;
      const instance = i % apps.length;
      if (options.twinEvery && i % options.twinEvery === 0) {
        await Promise.all([submit(order, instance), submit(order, (instance + 1) % apps.length)]);
      } else {
        await submit(order, instance);
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  return results;
}

/** The sandbox's records of an order's attempts `order-1`, `order-2`, … (the contract's `R-n`). */
export async function gatewayAttempts(sandboxUrl: string, order: string): Promise<Answer[]> {
  const attempts: Answer[] = [];
  for (let n = 1; n <= 50; n++) {
    const url = `${sandboxUrl}/_sandbox/transactions?merchantReference=${encodeURIComponent(`${order}-${n}`)}`;
    const { transactions } = (await (await fetch(url)).json()) as { transactions: Answer[] };
    if (transactions.length === 0) break;
    attempts.push(...transactions);
  }
  return attempts;
}

const isCharged = (t: Answer) => t.status === 'SETTLED' || t.status === 'AUTHORIZED';

/** Compares every answer with the gateway's records, then submits each charged order again. */
export async function audit(
  apps: SandboxApp[],
  sandboxUrl: string,
  results: Submitted[],
): Promise<Audit> {
  const byOrder = new Map<string, Submitted[]>();
  const answers: Record<string, number> = {};
  for (const r of results) {
    byOrder.set(r.order, [...(byOrder.get(r.order) ?? []), r]);
    answers[label(r)] = (answers[label(r)] ?? 0) + 1;
  }
  const report: Audit = {
    orders: byOrder.size,
    requests: results.length,
    answers,
    charged: 0,
    chargedButFailed: [],
    doubled: [],
    approvedNotCharged: [],
    notSettled: [],
    resubmitted: {},
  };
  const charged: string[] = [];
  const orders = [...byOrder.keys()];
  // A few lookups at a time: the sandbox shares the machine with the rest of the test.
  for (let i = 0; i < orders.length; i += 20) {
    await Promise.all(
      orders.slice(i, i + 20).map(async (order) => {
        const paid = (await gatewayAttempts(sandboxUrl, order)).filter(isCharged);
        const approved = byOrder.get(order)!.some((r) => r.body?.status === 'approved');
        if (paid.length > 0) charged.push(order);
        if (paid.length > 1) report.doubled.push(order);
        if (paid.length > 0 && !approved) report.chargedButFailed.push(order);
        if (paid.length === 0 && approved) report.approvedNotCharged.push(order);
      }),
    );
  }
  report.charged = charged.length;
  for (let i = 0; i < charged.length; i += 10) {
    await Promise.all(
      charged.slice(i, i + 10).map(async (order, j) => {
        const app = apps[(i + j) % apps.length]!;
        const owned = byOrder.get(order)!.find((r) => r.body?.clientSecret && r.body?.reference);
        const read = owned
          ? await fetch(`${app.url}/payments/${encodeURIComponent(owned.body.reference)}`, {
              headers: { 'x-pg-client-secret': owned.body.clientSecret },
            }).then(async (r) => ((await r.json()) as Answer).status)
          : 'approved';
        const again = await app.post('/payments', CARD, { 'x-order': order });
        const seen = label({ order, instance: 0, ...again, ms: 0 });
        report.resubmitted[seen] = (report.resubmitted[seen] ?? 0) + 1;
        const paid = (await gatewayAttempts(sandboxUrl, order)).filter(isCharged);
        // A second submit may find the order still locked (409); it must never fail or charge.
        const honest = again.body?.status === 'approved' || again.status === 409;
        if (read !== 'approved' || !honest || paid.length !== 1) report.notSettled.push(order);
      }),
    );
  }
  return report;
}
