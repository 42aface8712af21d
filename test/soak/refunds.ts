/**
 * The store-fault phase's back office (issue 26): a seeded share of the paid orders is refunded with
 * `checkout.refund` while Redis is killed and the shop's book has outages (so onRefundCompleted
 * throws, and its outbox dies with Redis). Some refunds are partial, some called twice with one key
 * (at once, or one after the other), some followed by a second refund that wants more than is left.
 * What was answered "try again" (the store or the gateway out, the answer unknown) is tried again
 * once both are healed, as a back office does.
 * After healing and sweeping, the book is checked against the gateway's records of each payment's
 * refund slots (`<payment>~r1`, `~r2`, ...), read with the sandbox's inspection route by merchant
 * reference (every record with that reference, so a slot used twice shows twice), never with the
 * list by paymentReference, which the spec says answers the payment only.
 */
import { refundReference } from '@pg-checkout/server';
import { pool } from '../bench/lib/pool.js';
import { seeded } from './random.js';
import type { BookEntry, RefundAnswer, RefundBookEntry } from './store-app-child.js';

const SHARE = Number(process.env.SOAK_REFUND_SHARE ?? 0.5);
const CONCURRENCY = 20;

type Scenario =
  'full' | 'partial' | 'same key at once' | 'same key again' | 'two keys' | 'full, then more';
const SCENARIOS: Scenario[] = [
  'full',
  'partial',
  'same key at once',
  'same key again',
  'two keys',
  'full, then more',
];

/** One `checkout.refund` call and what it answered. */
export interface RefundCall {
  payment: string;
  scenario: Scenario;
  key: string;
  amount?: number;
  answer: RefundAnswer;
  /** Tried again after healing, as the back office does with "try again". */
  retried?: true;
}

type Ask = <T>(cmd: string, arg?: unknown) => Promise<T>;

/** Refunds a seeded share of the payments the book holds; every call and its answer. */
export async function refundSome(ask: Ask, paid: BookEntry[]): Promise<RefundCall[]> {
  const chance = seeded('refunds');
  const chosen = [...paid]
    .sort((a, b) => a.order.localeCompare(b.order))
    .filter(() => chance() < SHARE)
    .map((entry) => ({
      entry,
      scenario: SCENARIOS[Math.floor(chance() * SCENARIOS.length)]!,
      // Whole cents in [100, amount - 100): now and then one ending in 07 (the sandbox's manual refund).
      amount: 100 + Math.floor(chance() * (entry.amount - 200)),
      second: 100 + Math.floor(chance() * (entry.amount - 200)),
    }));
  const calls: RefundCall[] = [];
  const call = async (payment: string, scenario: Scenario, key: string, amount?: number) => {
    const cmd = { reference: payment, key, ...(amount === undefined ? {} : { amount }) };
    const answer = await ask<RefundAnswer>('refund', cmd);
    calls.push({ payment, scenario, key, ...(amount === undefined ? {} : { amount }), answer });
  };
  await pool(CONCURRENCY, chosen.length, async (i) => {
    const { entry, scenario, amount, second } = chosen[i]!;
    const key = (n: number) => `${entry.order}.r${n}`;
    const p = entry.reference;
    switch (scenario) {
      case 'full':
        return call(p, scenario, key(1));
      case 'partial':
        return call(p, scenario, key(1), amount);
      case 'same key at once':
        await Promise.all([call(p, scenario, key(1), amount), call(p, scenario, key(1), amount)]);
        return;
      case 'same key again':
        await call(p, scenario, key(1), amount);
        return call(p, scenario, key(1), amount);
      case 'two keys':
        await call(p, scenario, key(1), amount);
        return call(p, scenario, key(2), second);
      case 'full, then more':
        await call(p, scenario, key(1));
        return call(p, scenario, key(2), 100);
    }
  });
  return calls;
}

/** What a back office answers "try again" to: nothing was sent, or the answer is not known yet. */
const RETRYABLE = new Set(['store_unavailable', 'gateway_unavailable', 'conflict']);
const retryable = (answer: RefundAnswer) =>
  'status' in answer ? answer.status === 'unknown' : RETRYABLE.has(answer.error);

/**
 * Once Redis and the book are healed, the back office tries again what it was told to try again
 * (the same key and amount, in the order first tried, one payment at a time): each call and its answer.
 */
export async function retryRefunds(ask: Ask, first: RefundCall[]): Promise<RefundCall[]> {
  const byPayment = new Map<string, RefundCall[]>();
  for (const c of first)
    if (retryable(c.answer)) byPayment.set(c.payment, [...(byPayment.get(c.payment) ?? []), c]);
  const payments = [...byPayment.values()];
  const calls: RefundCall[] = [];
  await pool(CONCURRENCY, payments.length, async (i) => {
    for (const c of payments[i]!) {
      const cmd = {
        reference: c.payment,
        key: c.key,
        ...(c.amount === undefined ? {} : { amount: c.amount }),
      };
      const answer = await ask<RefundAnswer>('refund', cmd);
      calls.push({ ...c, answer, retried: true });
    }
  });
  return calls;
}

export interface RefundCheck {
  violations: string[];
  counts: Map<string, number>;
  figures: (string | number)[][];
}

const completed = (t: { amount: number; status: string; pending?: boolean | null | undefined }) =>
  t.amount < 0 && t.pending !== true && (t.status === 'REFUNDED' || t.status === 'SETTLED');
const pendingRefund = (t: {
  amount: number;
  status: string;
  pending?: boolean | null | undefined;
}) => t.amount < 0 && (t.pending === true || t.status === 'NEW');

/** A record as the sandbox's inspection route shows it (`parent`: the payment a refund is of). */
interface Inspected {
  reference: string;
  merchantReference: string;
  amount: number;
  status: string;
  pending?: boolean;
  parent?: string | null;
}

/** Every record the gateway holds under a merchant reference (test-only inspection). */
async function recordsNamed(gatewayUrl: string, merchantReference: string): Promise<Inspected[]> {
  const url = `${gatewayUrl}/_sandbox/transactions?merchantReference=${encodeURIComponent(merchantReference)}`;
  const answer = (await (await fetch(url)).json()) as { transactions: Inspected[] };
  return answer.transactions;
}

/** A payment's refunds, slot by slot until two slots in a row hold nothing. */
async function slotRefunds(gatewayUrl: string, payment: string): Promise<Inspected[]> {
  const found: Inspected[] = [];
  for (let i = 1, misses = 0; misses < 2; i++) {
    const records = await recordsNamed(gatewayUrl, await refundReference(payment, i));
    misses = records.length === 0 ? misses + 1 : 0;
    found.push(...records);
  }
  return found;
}

/** The book's refunds against the gateway's records of every payment refunded. */
export async function checkRefunds(
  gateway: { url: string; token: string; secret: string },
  paid: BookEntry[],
  calls: RefundCall[],
  book: RefundBookEntry[],
): Promise<RefundCheck> {
  const KINDS = [
    'a refund the gateway completed missing from the book, or at another amount or payment',
    'a refund in the book the gateway does not have completed',
    'a payment refunded more than it was charged',
    'a key refunded twice (two gateway refunds for one merchant reference)',
    'the book’s refunds of a payment add up to other than the gateway’s',
    'an answer of refunded/already_refunded the gateway does not show',
    'a second refund with another key accepted past what was left',
  ];
  const counts = new Map(KINDS.map((k) => [k, 0]));
  const violations: string[] = [];
  const report = (kind: string, what: string) => {
    counts.set(kind, counts.get(kind)! + 1);
    violations.push(what);
  };
  const amountOf = new Map(paid.map((e) => [e.reference, e.amount]));
  const slotsOf = new Map<string, Inspected[]>();
  const payments = [...new Set(calls.map((c) => c.payment))].sort();
  const bookByRef = new Map(book.map((e) => [e.merchantReference, e]));
  const gatewayDone = new Map<string, { payment: string; amount: number }>();
  let completedRefunds = 0;
  let pendingRefunds = 0;
  let refundedCents = 0;
  await pool(10, payments.length, async (i) => {
    const payment = payments[i]!;
    const refunds = (await slotRefunds(gateway.url, payment)).filter((t) => t.amount < 0);
    slotsOf.set(payment, refunds);
    for (const t of refunds)
      if (t.parent && t.parent !== payment)
        report(KINDS[0]!, `${payment}: ${t.merchantReference} is a refund of ${t.parent}`);
    const done = refunds.filter(completed);
    const waiting = refunds.filter(pendingRefund);
    completedRefunds += done.length;
    pendingRefunds += waiting.length;
    const taken = [...done, ...waiting].reduce((n, t) => n - t.amount, 0);
    refundedCents += done.reduce((n, t) => n - t.amount, 0);
    if (taken > (amountOf.get(payment) ?? 0))
      report(
        KINDS[2]!,
        `${payment}: ${taken} cents refunded or pending of ${amountOf.get(payment)}`,
      );
    const perKey = new Map<string, number>();
    for (const t of refunds)
      perKey.set(t.merchantReference ?? '', (perKey.get(t.merchantReference ?? '') ?? 0) + 1);
    for (const [mr, n] of perKey)
      if (n > 1) report(KINDS[3]!, `${payment}: ${n} gateway refunds named ${mr}`);
    let bookSum = 0;
    for (const t of done) {
      const mr = t.merchantReference ?? '';
      gatewayDone.set(mr, { payment, amount: -t.amount });
      const held = bookByRef.get(mr);
      if (held?.amount !== -t.amount || held.paymentReference !== payment)
        report(
          KINDS[0]!,
          `${payment}: ${mr} refunded ${-t.amount} at the gateway; the book holds ${held ? `${held.amount} for ${held.paymentReference}` : 'nothing'}`,
        );
    }
    for (const held of book) if (held.paymentReference === payment) bookSum += held.amount;
    const gatewaySum = done.reduce((n, t) => n - t.amount, 0);
    if (bookSum !== gatewaySum)
      report(
        KINDS[4]!,
        `${payment}: the book holds ${bookSum} cents refunded, the gateway ${gatewaySum}`,
      );
  });
  for (const held of book)
    if (!gatewayDone.has(held.merchantReference))
      report(
        KINDS[1]!,
        `${held.merchantReference}: the book holds ${held.amount} for ${held.paymentReference}`,
      );
  for (const c of calls) {
    if (!('status' in c.answer)) continue;
    const { status, amount, merchantReference } = c.answer;
    if (status !== 'refunded' && status !== 'already_refunded') continue;
    const at = gatewayDone.get(merchantReference);
    // already_refunded of a pending refund is not done yet.
    if (status === 'already_refunded' && !at) continue;
    if (at?.amount !== amount || at.payment !== c.payment)
      report(
        KINDS[5]!,
        `${c.payment} ${c.key}: answered ${status} ${amount}; the gateway shows ${at ? `${at.amount}` : 'no completed refund'}`,
      );
  }
  // "full, then more": nothing is left after a full refund that was done, so the second key, sent
  // after it, is refused. (Tried again after healing, the second may have gone first: then the full
  // refund took what was left after it.) `calls` is in the order the answers came.
  const fullDoneAt = new Map<string, number>();
  calls.forEach((c, at) => {
    if (
      c.scenario === 'full, then more' &&
      c.key.endsWith('.r1') &&
      'status' in c.answer &&
      (c.answer.status === 'refunded' || c.answer.status === 'already_refunded') &&
      !fullDoneAt.has(c.payment)
    )
      fullDoneAt.set(c.payment, at);
  });
  const story = (payment: string) =>
    calls
      .filter((c) => c.payment === payment)
      .map(
        (c) =>
          `${c.key}${c.amount === undefined ? '' : ` ${c.amount}`}${c.retried ? ' (again)' : ''} -> ${'status' in c.answer ? `${c.answer.status} ${c.answer.amount} ${c.answer.merchantReference}` : c.answer.error}`,
      )
      .join('; ');
  calls.forEach((c, at) => {
    const doneAt = fullDoneAt.get(c.payment);
    if (doneAt === undefined || at < doneAt || !c.key.endsWith('.r2') || !('status' in c.answer))
      return;
    if (c.answer.status !== 'refunded' && c.answer.status !== 'pending') return;
    report(
      KINDS[6]!,
      `${c.payment} ${c.key}: answered ${c.answer.status} after a full refund (${story(c.payment)}; charged ${amountOf.get(c.payment)}, the gateway's slots: ${(slotsOf.get(c.payment) ?? []).map((t) => `${t.merchantReference} ${t.amount} ${t.status}${t.pending ? ' pending' : ''}`).join(', ')})`,
    );
  });

  const byAnswer = new Map<string, number>();
  for (const c of calls) {
    const a = 'status' in c.answer ? c.answer.status : `error ${c.answer.error}`;
    byAnswer.set(a, (byAnswer.get(a) ?? 0) + 1);
  }
  const byScenario = new Map<string, number>();
  for (const c of calls) byScenario.set(c.scenario, (byScenario.get(c.scenario) ?? 0) + 1);
  const figures: (string | number)[][] = [
    ['paid orders refunded / checkout.refund calls', `${payments.length} / ${calls.length}`],
    ['calls by scenario', [...byScenario].map(([k, v]) => `${k} ${v}`).join(', ')],
    ['of them tried again after healing', calls.filter((c) => c.retried).length],
    [
      'answers',
      [...byAnswer]
        .sort((a, b) => a[0].localeCompare(b[0]))
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
    ],
    [
      'gateway refunds completed / pending (code 7) / cents refunded',
      `${completedRefunds} / ${pendingRefunds} / ${refundedCents}`,
    ],
    ['refunds in the book', book.length],
  ];
  return { violations, counts, figures };
}
