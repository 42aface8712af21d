/**
 * The soak's store-fault phase: createCheckout on a RedisStore whose redis-server (persistence
 * off) is SIGKILLed at random moments and started again empty on the same port, many times, while
 * shoppers pay orders (frictionless cards, declines, 3-D Secure v1/v2 challenges completed on the
 * sandbox's access control pages) and press Pay again after any answer that is not final. The
 * shop's order book (onPaymentCompleted) has its own seeded outages and failing writes until it is
 * healed and the reconciliation sweep runs. Then every answer, and the book, is checked against the
 * sandbox's own records.
 */
import { fileURLToPath } from 'node:url';
import { startChild } from '../bench/lib/child.js';
import { pool, table } from '../bench/lib/pool.js';
import type { SoakCard } from './cards.js';
import { startFaultyRedis } from './redis-faults.js';
import { shop, shopInTwoTabs, type Said, type ShopperResult } from './shopper.js';
import type { ReconcileSummary } from '@pg-checkout/express';
import type {
  BookEntry,
  BookStats,
  GatewayCall,
  LogLine,
  RefundBookEntry,
  RefundBookStats,
} from './store-app-child.js';
import { checkRefunds, refundSome, retryRefunds } from './refunds.js';

const ORDERS = Number(process.env.SOAK_STORE_PAYMENTS ?? 1_500);
const CONCURRENCY = Number(process.env.SOAK_STORE_CONCURRENCY ?? 50);
const UP_MS: [number, number] = [250, 1_500];
const DOWN_MS: [number, number] = [0, 250];
const PAGE_ORIGIN = 'https://shop.test';

const card = (number: string, type: SoakCard['type'], expect: SoakCard['expect']): SoakCard => ({
  number,
  type,
  expect,
});
const APPROVE = [
  card('4111111111111111', 'visa', 'approved'),
  card('5555555555554444', 'mastercard', 'approved'),
  card('378282246310005', 'amex', 'approved'),
  card('4550270020557018', 'visa', 'approved'),
];
const DECLINE = [
  card('4000000000000002', 'visa', 'declined'),
  card('4000000000009995', 'visa', 'declined'),
];
// 3-D Secure: what each ends as once the shopper enters 1234 (or at Step 2).
const THREE_DS: [SoakCard, 'approved' | 'declined'][] = [
  [card('4000000000003097', 'visa', 'authenticating'), 'approved'], // v1
  [card('4260890000160011', 'visa', 'authenticating'), 'approved'], // v2 method, challenge
  [card('4000000000003063', 'visa', 'authenticating'), 'approved'], // v2 method, challenge
  [card('4000000000003220', 'visa', 'authenticating'), 'approved'], // v2 frictionless after method
  [card('4000000000003055', 'visa', 'authenticating'), 'approved'], // v2 challenge at once
  [card('4000000000000127', 'visa', 'authenticating'), 'declined'], // v2 fails at Step 2
  [card('4000000000000119', 'visa', 'authenticating'), 'declined'], // challenge passes, declined
];
// 20 slots: 10 frictionless, 3 declines, 7 3-D Secure.
const MIX: { card: SoakCard; ends: 'approved' | 'declined' }[] = [
  ...[0, 1, 2, 3, 0, 1, 2, 3, 0, 1].map((i) => ({ card: APPROVE[i]!, ends: 'approved' as const })),
  ...[0, 1, 0].map((i) => ({ card: DECLINE[i]!, ends: 'declined' as const })),
  ...THREE_DS.map(([c, ends]) => ({ card: c, ends })),
];

const TWO_TABS = Number(process.env.SOAK_STORE_TWO_TABS ?? 4);
// Cards whose create answers a challenge at once (v1, v2), so tab A's challenge is open at once.
const TWO_TAB_CHALLENGE = [THREE_DS[0]![0], THREE_DS[4]![0]];

interface SandboxTxn {
  reference: string;
  merchantReference: string;
  amount: number;
  currency: string;
  status: string;
  createdAt: number;
  updatedAt: number;
}

// REFUNDED: a charge the back office refunded in full (refunds.ts) was charged all the same.
const CHARGED = new Set(['AUTHORIZED', 'SETTLED', 'REFUNDED']);
const SHOW = (process.env.SOAK_SHOW ?? '').split(',').filter(Boolean);
let shown = 0;
const NOT_CHARGED = /\bnot (?:been )?charged\b|\bnothing was charged\b/i;
const lib = (name: string) => fileURLToPath(new URL(`../bench/lib/${name}`, import.meta.url));

const line = (s: Said) =>
  `${new Date(s.at).toISOString().slice(11, 23)} ${s.req} ${s.route} -> ${s.http || 'network error'} ` +
  (s.body
    ? `${s.body.status ?? ''} ${s.body.code ?? ''} ${s.body.reference ?? ''} "${s.body.message ?? ''}"`
    : `${s.contentType} ${(s.text ?? '').replace(/\s+/g, ' ').slice(0, 80)}`);

export interface StorePhaseResult {
  violations: string[];
}

export async function runStoreFaultPhase(log: (s: string) => void): Promise<StorePhaseResult> {
  const started = Date.now();
  const sandbox = await startChild<{ url: string; token: string; secret: string }>(
    lib('sandbox-child.ts'),
  );
  const redis = await startFaultyRedis();
  let app: Awaited<ReturnType<typeof startChild<{ url: string }>>> | undefined;
  try {
    app = await startChild<{ url: string }>(
      fileURLToPath(new URL('./store-app-child.ts', import.meta.url)),
      {
        SANDBOX_URL: sandbox.ready.url,
        PG_TOKEN: sandbox.ready.token,
        PG_SECRET: sandbox.ready.secret,
        REDIS_PORT: String(redis.port),
      },
    );
    const url = app.ready.url;
    redis.startFaults({ upMs: UP_MS, downMs: DOWN_MS });
    const loadStart = Date.now();
    const shoppers: ShopperResult[] = [];
    await pool(CONCURRENCY, ORDERS, async (i) => {
      const options = { url, origin: PAGE_ORIGIN, maxPresses: 12, maxPolls: 40, pollMs: 250 };
      // Every TWO_TABS-th order is paid in two tabs while a challenge is open in the first.
      if (i % TWO_TABS === TWO_TABS - 1) {
        const challenge = TWO_TAB_CHALLENGE[Math.floor(i / TWO_TABS) % TWO_TAB_CHALLENGE.length]!;
        shoppers.push(await shopInTwoTabs(`store-${i}`, challenge, APPROVE[0]!, options));
        return;
      }
      const slot = MIX[i % MIX.length]!;
      // A third of the shoppers press Pay again after their approval.
      shoppers.push(
        await shop(`store-${i}`, slot.card, { ...options, resubmitAfterApproved: i % 3 === 0 }),
      );
    });
    const loadSeconds = (Date.now() - loadStart) / 1000;
    // The back office refunds paid orders while Redis still dies and the book still has outages.
    const refundStart = Date.now();
    const paidBefore = (await app.ask<{ entries: BookEntry[] }>('book')).entries;
    const refundCalls = await refundSome(app.ask, paidBefore);
    const refundSeconds = (Date.now() - refundStart) / 1000;
    await redis.stopFaults();
    log(
      `store faults: ${ORDERS} orders at concurrency ${CONCURRENCY} in ${loadSeconds.toFixed(1)} s, ` +
        `${refundCalls.length} refund calls in ${refundSeconds.toFixed(1)} s, ` +
        `Redis killed ${redis.stats.kills} times`,
    );

    // Let answers the tap delayed and background store writes settle before reading the records.
    await new Promise((r) => setTimeout(r, 1_000));
    // The shop's database is back: what its hook did not take must arrive, from the retries and the
    // sweep (the outbox may have died with Redis; the gateway's list has every charge).
    const healedAt = Date.now();
    await app.ask('heal');
    // The back office tries again what it was told to try again, now that Redis and the book are back.
    refundCalls.push(...(await retryRefunds(app.ask, refundCalls)));
    const sweeps: ReconcileSummary[] = [];
    for (let round = 0; round < 5; round++) {
      const swept = await app.ask<ReconcileSummary>('reconcile');
      sweeps.push(swept);
      if (!swept.busy && swept.failed === 0 && swept.delivered === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const sweepSeconds = (Date.now() - healedAt) / 1000;
    const book = await app.ask<{ entries: BookEntry[]; stats: BookStats }>('book');
    const calls = await app.ask<GatewayCall[]>('calls');
    const logs = await app.ask<LogLine[]>('logs');
    const storeErrors = await app.ask<number>('storeErrors');
    const unavailableMs = await app.ask<number>('unavailableMs');
    const loopDelay = await app.ask<{ p99: number; max: number }>('loopDelay');
    const ends = new Map(MIX.map((m) => [m.card.number, m.ends]));
    const result = await check(sandbox.ready.url, shoppers, calls, logs, ends, book.entries);
    const refundBook = await app.ask<{ entries: RefundBookEntry[]; stats: RefundBookStats }>(
      'refundBook',
    );
    const refunds = await checkRefunds(sandbox.ready, paidBefore, refundCalls, refundBook.entries);

    const said = shoppers.flatMap((s) => s.said);
    const byAnswer = new Map<string, number>();
    for (const s of said) {
      const key =
        `${s.route} ${s.http || 'network error'} ${s.body?.status ?? ''} ${s.body?.code ?? (s.body ? '' : s.contentType.split(';')[0])}`
          .replace(/\s+/g, ' ')
          .trim();
      byAnswer.set(key, (byAnswer.get(key) ?? 0) + 1);
    }
    log('Answers the shoppers got during Redis kills (route, HTTP status, state, code):');
    table(
      ['answer', 'count'],
      [...byAnswer.entries()].sort((a, b) => a[0].localeCompare(b[0])),
    );
    log('Final outcome per order, checked against the sandbox:');
    table(
      ['outcome', 'orders'],
      [...result.outcomes.entries()].sort((a, b) => b[1] - a[1]),
    );
    const presses = shoppers.reduce((n, s) => n + s.presses, 0);
    // Evidence that the faults hit the paths of issue #10: requests that logged these lines.
    const requestsLogging = (text: string, route?: Said['route']) => {
      const reqs = new Set(logs.filter((l) => l.message.startsWith(text)).map((l) => l.req));
      return route ? said.filter((a) => a.route === route && reqs.has(a.req)).length : reqs.size;
    };
    const completionsDegraded =
      requestsLogging('store unavailable; reading the order from the gateway', 'callback') +
      requestsLogging('store unavailable; reading the order from the gateway', 'term');
    const callsThenStoreLost = requestsLogging('store write failed after a gateway call');
    const pollsGivenUp = shoppers.reduce((n, s) => n + s.pollsGivenUp, 0);
    table(
      ['figure', 'value'],
      [
        ['payments (orders)', ORDERS],
        ['Pay pressed / retries (presses after the first)', `${presses} / ${presses - ORDERS}`],
        [
          'Pay pressed again after an approval (must answer the same payment)',
          shoppers.reduce((n, s) => n + s.resubmits, 0),
        ],
        ['shopper requests to the middleware', said.length],
        ['load phase', `${loadSeconds.toFixed(1)} s`],
        [
          'Redis kills / restarted empty',
          `${redis.stats.kills} (every ${(loadSeconds / Math.max(1, redis.stats.kills)).toFixed(2)} s)`,
        ],
        [
          'Redis downtime total (kill -> PING answered) / longest',
          `${(redis.stats.downtimeMs / 1000).toFixed(1)} s (${((redis.stats.downtimeMs / 1000 / loadSeconds) * 100).toFixed(0)}% of the load) / ${redis.stats.longestDownMs} ms`,
        ],
        [
          'Redis unreachable as the app saw it (connection lost -> ready) / ioredis errors',
          `${(unavailableMs / 1000).toFixed(1)} s / ${storeErrors}`,
        ],
        ['app event-loop delay p99 / max', `${loopDelay.p99} ms / ${loopDelay.max} ms`],
        ['money-moving gateway calls (creates / Step 2 / 3DS confirms)', result.callCounts],
        ['sandbox transactions found / charged', `${result.transactions} / ${result.chargedTxns}`],
        [
          '3-D Secure completion pages (callback/term) / answered HTML',
          `${result.completions} / ${result.completionsHtml}`,
        ],
        [
          'requests whose store write failed after their gateway call (Redis died meanwhile)',
          callsThenStoreLost,
        ],
        [
          'completion pages served with Redis down (order read back from the gateway)',
          completionsDegraded,
        ],
        ['challenges done at the bank whose status polls (40) never turned final', pollsGivenUp],
        ['"not charged" answers checked', result.notChargedAnswers],
        [
          'orders whose shopper gave up (no final answer)',
          `${result.gaveUp} (${result.gaveUpCharged} of them charged)`,
        ],
        ['phase wall time', `${((Date.now() - started) / 1000).toFixed(1)} s`],
      ],
    );
    log('The shop’s order book (merchant hook failures and database outages until healed):');
    table(
      ['invariant or figure', 'value'],
      [
        [
          'onPaymentCompleted calls / refused (outage) / thrown / repeats of a held payment',
          `${book.stats.calls} / ${book.stats.refused} / ${book.stats.thrown} / ${book.stats.repeats}`,
        ],
        ['database outages during the load', book.stats.outages],
        [
          'sweeps after healing (checked, delivered, failed, gateway calls each)',
          sweeps
            .map((w) =>
              w.busy ? 'busy' : `${w.checked}/${w.delivered}/${w.failed}/${w.gatewayCalls}`,
            )
            .join(', '),
        ],
        ['healed -> last sweep done', `${sweepSeconds.toFixed(1)} s`],
        [
          'charged orders known to the shop as paid at the gateway’s amount',
          `${result.chargedKnown} of ${result.chargedOrders}`,
        ],
        ['payments the shop holds as paid that the gateway did not charge', result.paidNotCharged],
        ['orders charged twice', result.counts.get(KIND_DOUBLED) ?? 0],
      ],
    );
    log(
      'The shop’s refunds (checkout.refund during Redis kills and book outages, then healed and swept):',
    );
    const rs = refundBook.stats;
    table(
      ['invariant or figure', 'value'],
      [
        ...refunds.figures,
        [
          'onRefundCompleted calls / refused (outage) / thrown / repeats of a held refund',
          `${rs.calls} / ${rs.refused} / ${rs.thrown} / ${rs.repeats}`,
        ],
        ['a held refund handed over again with another amount or payment', rs.conflicting],
        [
          'every refund the gateway completed in the book once, at its amount and payment',
          refunds.counts.get(
            'a refund the gateway completed missing from the book, or at another amount or payment',
          ) === 0 &&
          refunds.counts.get(
            'the book’s refunds of a payment add up to other than the gateway’s',
          ) === 0
            ? 'yes'
            : 'NO',
        ],
        ...[...refunds.counts.entries()].slice(1, 4).map(([k, v]) => [k, v]),
      ],
    );
    if (rs.conflicting > 0)
      refunds.violations.push(`${rs.conflicting} refunds handed over again with other facts`);
    table(
      ['violation', 'count'],
      [...result.counts.entries(), ...refunds.counts.entries()].map(([k, v]) => [k, v]),
    );
    if (refunds.violations.length > 0) {
      log(`${refunds.violations.length} refund VIOLATION(S):`);
      for (const v of refunds.violations.slice(0, 30)) log(v);
    }
    if (result.violations.length > 0) {
      log(
        `${result.violations.length} store-fault VIOLATION(S), with the order's answers and gateway calls:`,
      );
      for (const v of result.violations.slice(0, 30)) log(v);
    }
    return {
      violations: [...result.violations.map((v) => v.split('\n')[0]!), ...refunds.violations],
    };
  } finally {
    await redis.stop().catch(() => undefined);
    await app?.close();
    await sandbox.close();
  }
}

const KIND_DOUBLED = 'doubled (order charged more than once)';

interface Check {
  chargedOrders: number;
  chargedKnown: number;
  paidNotCharged: number;
  violations: string[];
  counts: Map<string, number>;
  outcomes: Map<string, number>;
  transactions: number;
  chargedTxns: number;
  callCounts: string;
  completions: number;
  completionsHtml: number;
  notChargedAnswers: number;
  gaveUp: number;
  gaveUpCharged: number;
}

async function check(
  sandboxUrl: string,
  shoppers: ShopperResult[],
  calls: GatewayCall[],
  logs: LogLine[],
  ends: Map<string, 'approved' | 'declined'>,
  book: BookEntry[],
): Promise<Check> {
  const KINDS = [
    KIND_DOUBLED,
    'lost (told approved, charge missing or another reference)',
    'false "not charged" (the attempt it speaks of is charged)',
    '"nothing was charged" 503 after a create or confirm was sent',
    'told declined/failed as final (or after the approval), order charged',
    'HTTP 500 or other 5xx than 502/503/504',
    '3-D Secure completion page not HTML',
    'sandbox record of a create the tap never saw, or two for one reference',
    'charged, but unknown to the shop (or at another amount) after the sweep',
    'held as paid by the shop, but not charged at the gateway',
  ];
  const counts = new Map(KINDS.map((k) => [k, 0]));
  const violations: string[] = [];
  const callsByOrder = new Map<string, GatewayCall[]>();
  const orderOfReq = (req: string) => req.slice(0, req.lastIndexOf('#'));
  const createsByOrder = new Map<string, Set<string>>();
  for (const c of calls) {
    if (c.kind === 'create') {
      const order = c.ref.slice(0, c.ref.lastIndexOf('-'));
      (createsByOrder.get(order) ?? createsByOrder.set(order, new Set()).get(order)!).add(c.ref);
    }
  }
  for (const c of calls) {
    const order = c.req ? orderOfReq(c.req) : c.ref.slice(0, c.ref.lastIndexOf('-'));
    (callsByOrder.get(order) ?? callsByOrder.set(order, []).get(order)!).push(c);
  }
  const callCounts = ['create', 'step2', 'confirm']
    .map((k) => calls.filter((c) => c.kind === k).length)
    .join(' / ');

  // The sandbox's records of every attempt: each merchant reference the tap saw, and one more
  // number past the highest, which must not exist.
  const txnsByOrder = new Map<string, SandboxTxn[]>();
  const orders = shoppers.map((s) => s.order);
  let transactions = 0;
  await pool(20, orders.length, async (i) => {
    const order = orders[i]!;
    const refs = [...(createsByOrder.get(order) ?? [])];
    const highest = Math.max(0, ...refs.map((r) => Number(r.slice(r.lastIndexOf('-') + 1))));
    const found: SandboxTxn[] = [];
    for (let n = 1; n <= highest + 1; n++) {
      const response = await fetch(
        `${sandboxUrl}/_sandbox/transactions?limit=500&merchantReference=${encodeURIComponent(`${order}-${n}`)}`,
      );
      const { transactions: list } = (await response.json()) as { transactions: SandboxTxn[] };
      found.push(...list);
      const sent = refs.includes(`${order}-${n}`);
      if (list.length > 0 && !sent) {
        counts.set(KINDS[7]!, counts.get(KINDS[7]!)! + 1);
        violations.push(`${order}: the sandbox has ${order}-${n}, which the tap never saw sent`);
      }
      if (list.length > 1) {
        counts.set(KINDS[7]!, counts.get(KINDS[7]!)! + 1);
        violations.push(`${order}: the sandbox has ${list.length} transactions for ${order}-${n}`);
      }
    }
    transactions += found.length;
    txnsByOrder.set(order, found);
  });

  const outcomes = new Map<string, number>();
  let completions = 0;
  let completionsHtml = 0;
  let notChargedAnswers = 0;
  let gaveUp = 0;
  let gaveUpCharged = 0;
  let chargedTxns = 0;
  let chargedOrders = 0;
  let chargedKnown = 0;
  const paidByShop = new Map(book.map((e) => [e.reference, e]));
  const chargedRefs = new Set<string>();
  for (const s of shoppers) {
    const txns = txnsByOrder.get(s.order) ?? [];
    const charged = txns.filter((t) => CHARGED.has(t.status));
    chargedTxns += charged.length;
    for (const t of charged) chargedRefs.add(t.reference);
    if (charged.length > 0) chargedOrders += 1;
    const known = charged.filter((t) => {
      const held = paidByShop.get(t.reference);
      return held?.amount === t.amount && held.currency === t.currency && held.order === s.order;
    });
    if (charged.length > 0 && known.length === charged.length) chargedKnown += 1;
    const mine = callsByOrder.get(s.order) ?? [];
    const time = (ms: number) => new Date(ms).toISOString().slice(11, 23);
    const about = new RegExp(`(^|\\s)(order|merchantReference)=${s.order}(-\\d+)?(\\s|$)`);
    const refs = new Set(txns.map((t) => t.reference));
    const mentions = (l: LogLine) =>
      l.req.startsWith(`${s.order}#`) ||
      about.test(l.fields) ||
      [...refs].some((r) => l.fields.includes(`reference=${r}`));
    let dumped = false;
    // One timeline: the shopper's answers (by send time), the gateway calls, the middleware's logs.
    const dump = (what: string) => {
      if (dumped) return `${s.order}: ${what}`;
      dumped = true;
      const events: [number, string][] = [
        ...s.said.map((a): [number, string] => [
          a.sentAt,
          `${time(a.sentAt)} -> ${time(a.at)} ${line(a).slice(13)}`,
        ]),
        ...mine.map((c): [number, string] => [
          c.sentAt,
          `${time(c.sentAt)}    gateway ${c.kind} ${c.ref} (for ${c.req || 'no request'}) -> ${c.status || 'no answer'} ${c.originalErrorCode ?? ''}`,
        ]),
        ...logs
          .filter(mentions)
          .map((l): [number, string] => [
            l.at,
            `${time(l.at)}    log ${l.req || '-'} ${l.level}: ${l.message} ${l.fields}`,
          ]),
      ];
      events.sort((x, y) => x[0] - y[0]);
      return [
        `${s.order} (card ${s.card.number.slice(-4)}${s.challengeTab ? `, challenge tab ${s.challengeTab.card.number.slice(-4)}` : ''}): ${what}`,
        ...events.map(([, e]) => `    ${e}`),
        '  sandbox:',
        ...txns.map(
          (t) =>
            `    ${t.merchantReference} ${t.reference} ${t.status} created ${time(t.createdAt)} updated ${time(t.updatedAt)}`,
        ),
      ].join('\n');
    };
    const report = (kind: string, what: string) => {
      counts.set(kind, counts.get(kind)! + 1);
      violations.push(dump(what));
    };
    // SOAK_SHOW="create 504,step2 502": print the whole sequence of the first orders with such an answer.
    const show = s.said.find((a) => SHOW.some((k) => `${a.route} ${a.http}`.startsWith(k)));
    if (show && shown < 3) {
      shown += 1;
      console.log(dump(`shown for its answer ${show.route} ${show.http}`));
    }

    if (charged.length > 1)
      report(
        KINDS[0]!,
        `charged ${charged.length} times: ${charged.map((t) => t.reference).join(', ')}`,
      );
    for (const t of charged)
      if (!known.includes(t)) {
        const held = paidByShop.get(t.reference);
        report(
          KINDS[8]!,
          `${t.reference} charged ${t.amount} ${t.currency}; the shop holds ${held ? `${held.amount} ${held.currency} for ${held.order}` : 'nothing'}`,
        );
      }

    for (const a of s.said) {
      if (a.http >= 500 && ![502, 503, 504].includes(a.http))
        report(KINDS[5]!, `answered ${a.http} on ${a.route} (${a.req})`);
      if (a.route === 'callback' || a.route === 'term') {
        completions += 1;
        if (a.http !== 0 && a.contentType.startsWith('text/html')) completionsHtml += 1;
        else if (a.http !== 0)
          report(KINDS[6]!, `completion page ${a.req} answered ${a.http} ${a.contentType}`);
      }
      const body = a.body;
      if (!body) continue;
      if (a.resubmit && a.http < 500 && body.code !== 'conflict' && body.status !== 'approved')
        report(
          KINDS[4]!,
          `${a.req}, Pay pressed after the approval, answered ${a.http} ${body.status ?? ''} ${body.code ?? ''}`,
        );
      // A doubled order is counted once, above; "lost" is an approval the one charge does not match.
      if (body.status === 'approved' && charged.length <= 1) {
        if (charged.length !== 1 || charged[0]!.reference !== body.reference)
          report(
            KINDS[1]!,
            `${a.req} told approved as ${body.reference}; the sandbox charged ${charged.map((t) => t.reference).join(', ') || 'nothing'}`,
          );
      }
      if (body.message && NOT_CHARGED.test(body.message)) {
        notChargedAnswers += 1;
        // The attempts this answer speaks of: what its request sent, and the payment it names.
        const sent = mine.filter((c) => c.req === a.req);
        const refs = new Set<string>([
          ...sent.map((c) => c.ref),
          ...(body.reference ? [body.reference] : []),
        ]);
        const hit = charged.filter((t) => refs.has(t.merchantReference) || refs.has(t.reference));
        if (hit.length > 0)
          report(
            KINDS[2]!,
            `${a.req} said "${body.message}" but ${hit.map((t) => `${t.merchantReference} (${t.reference})`).join(', ')} is charged`,
          );
        if (
          (body.code === 'store_unavailable' || body.code === 'gateway_unavailable') &&
          sent.length > 0
        )
          report(
            KINDS[3]!,
            `${a.req} answered ${a.http} ${body.code} after sending ${sent.map((c) => `${c.kind} ${c.ref}`).join(', ')}`,
          );
      }
    }

    const final = s.final?.body;
    let outcome: string;
    if (!final) {
      gaveUp += 1;
      if (charged.length > 0) gaveUpCharged += 1;
      outcome =
        charged.length > 0
          ? 'no final answer after 12 presses, charged'
          : 'no final answer after 12 presses, not charged';
    } else if (final.status === 'approved') {
      outcome =
        charged.length === 1
          ? 'approved (charged once)'
          : `approved, CHARGED ${charged.length} TIMES`;
    } else {
      outcome = `${final.status} ${final.code ?? ''}`.trim();
      if (final.code !== 'already_paid' && charged.length > 0)
        report(
          KINDS[4]!,
          `last told ${final.status} ${final.code ?? ''}, but ${charged[0]!.reference} is charged`,
        );
    }
    const expected = ends.get(s.card.number);
    if (final && expected && final.status !== expected) outcome += ` (card ends ${expected})`;
    if (s.challengeTab) {
      const a = s.challengeTab.final?.body;
      outcome = `two tabs: ${outcome}; challenge tab ${a ? `${a.status} ${a.code ?? ''}`.trim() : 'no final answer'}`;
    }
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    if (shown < 3 && SHOW.some((k) => k.startsWith('outcome:') && outcome.includes(k.slice(8)))) {
      shown += 1;
      console.log(dump(`shown for its outcome: ${outcome}`));
    }
  }
  let paidNotCharged = 0;
  for (const held of book) {
    if (chargedRefs.has(held.reference)) continue;
    paidNotCharged += 1;
    counts.set(KINDS[9]!, counts.get(KINDS[9]!)! + 1);
    violations.push(
      `${held.order}: the shop holds ${held.reference} as paid; the gateway did not charge it`,
    );
  }
  return {
    chargedOrders,
    chargedKnown,
    paidNotCharged,
    violations,
    counts,
    outcomes,
    transactions,
    chargedTxns,
    callCounts,
    completions,
    completionsHtml,
    notChargedAnswers,
    gaveUp,
    gaveUpCharged,
  };
}
