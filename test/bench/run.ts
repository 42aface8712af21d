/**
 * `npm run bench`: signing, middleware overhead, sandbox throughput and memory, stores and the
 * browser, printed as Markdown tables. Loopback only; `--only=signing,overhead,...` picks parts.
 * `cpu-before-after` needs `--before=<dir>`: an older tree's `packages/` to compare this one (or
 * `--after=<dir>`) with.
 */
import { fileURLToPath } from 'node:url';
import { GatewayClient } from '@pg-checkout/node';
import { benchBrowser } from './browser.js';
import { benchSlowNetwork } from './slow-network.js';
import { startChild } from './lib/child.js';
import { machine } from './lib/machine.js';
import { table } from './lib/pool.js';
import { benchOverhead, type Load } from './overhead.js';
import { benchSandbox, type SandboxReady } from './sandbox-bench.js';
import { benchSweep } from './reconcile-bench.js';
import { benchSigning } from './signing.js';
import { benchMiddlewareCpu } from './middleware-cpu.js';
import { benchCpuBeforeAfter } from './cpu-before-after.js';
import { benchTelemetryCpu } from './telemetry-cpu.js';
import { benchStores } from './store-bench.js';
import { benchTelemetry } from './telemetry-bench.js';
import { printFailover, printRedisCommandsWithLimits, printRedisRoutes } from './redis-report.js';
import { benchPayToCreate } from './pay-to-create.js';

const PARTS = [
  'signing',
  'cpu',
  'overhead',
  'sandbox',
  'store',
  'redis',
  'redis-commands',
  'failover',
  'browser',
  'slow3g',
  'pay-to-create',
  'reconcile',
  'telemetry',
  'telemetry-cpu',
  'cpu-before-after',
] as const;
// Only on request: it needs an older tree.
const DEFAULT_PARTS: readonly string[] = PARTS.filter((p) => p !== 'cpu-before-after');
const beforeDir = process.argv.find((a) => a.startsWith('--before='))?.slice(9);
const afterDir = process.argv.find((a) => a.startsWith('--after='))?.slice(8);
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',');
const unknown = only?.filter((p) => !(PARTS as readonly string[]).includes(p));
if (unknown?.length) {
  console.error(`unknown part(s) ${unknown.join(', ')}; choose from ${PARTS.join(', ')}`);
  process.exit(2);
}
const want = (part: (typeof PARTS)[number]) =>
  only ? only.includes(part) : DEFAULT_PARTS.includes(part);
if (want('cpu-before-after') && !beforeDir) {
  console.error(
    'cpu-before-after needs --before=<dir>, e.g. `git archive <commit> packages | tar -x -C <dir>`',
  );
  process.exit(2);
}
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const started = Date.now();
const goals: string[] = [];
const goal = (what: string, ok: boolean) => goals.push(`${ok ? 'met   ' : 'MISSED'}  ${what}`);

console.log(`# pg-checkout bench\n\n${machine()}\n`);

if (want('signing')) {
  const s = await benchSigning();
  console.log('## Signing (1 KB body)\n');
  table(
    ['', 'µs per signature'],
    [
      ['signRequest (@pg-checkout/node)', fmt(s.ours, 2)],
      ['bare createHmac sha256 (floor)', fmt(s.floor, 2)],
      ['ratio', fmt(s.ours / s.floor, 2)],
    ],
  );
  goal(`signing ratio ${fmt(s.ours / s.floor, 2)} <= 1.5`, s.ours / s.floor <= 1.5);
}

if (want('cpu')) {
  const c = await benchMiddlewareCpu();
  console.log('## Middleware CPU in one process (card payment, gateway answered in memory)\n');
  table(
    ['', 'ms of CPU per payment'],
    [
      [
        'createCheckoutHandler + GatewayClient + MemoryStore (median of 5 rounds)',
        fmt(c.msPerPayment, 3),
      ],
      ['rounds', c.rounds.map((r) => fmt(r, 3)).join(', ')],
    ],
  );
}

if (want('cpu-before-after')) {
  const c = await benchCpuBeforeAfter(beforeDir!, afterDir);
  console.log(
    `## Middleware CPU before and after, in one process (card payment, gateway answered in memory; ${c.rounds} interleaved rounds of ${fmt(c.perRound)})\n\n` +
      `before: ${beforeDir}, after: ${afterDir ?? 'this tree'}\n`,
  );
  const row = (setup: string, r: typeof c.noHook) => [
    setup,
    fmt(r.before, 3),
    fmt(r.after, 3),
    fmt(r.ratio.median, 3),
    `${fmt(r.ratio.min, 2)} to ${fmt(r.ratio.max, 2)}`,
  ];
  table(
    ['', 'before ms/payment', 'after ms/payment', 'after / before (median of rounds)', 'rounds'],
    [row('no hook', c.noHook), row('no-op onPaymentCompleted', c.hook)],
  );
  for (const [setup, r] of [
    ['no hook', c.noHook],
    ['no-op hook', c.hook],
  ] as const)
    goal(
      `middleware CPU after / before, ${setup}: ${fmt(r.ratio.median, 3)} <= 1.05`,
      r.ratio.median <= 1.05,
    );
}

if (want('telemetry-cpu')) {
  const t = await benchTelemetryCpu();
  console.log(
    `## Telemetry CPU in one process (card payment, gateway answered in memory; ${t.rounds} interleaved rounds of ${fmt(t.perRound)})\n`,
  );
  const label: Record<string, string> = {
    off: 'telemetry off (`enabled: false`)',
    'no-sdk': '@opentelemetry/api installed, no SDK registered',
    sdk: 'trace + metrics SDK, in-memory exporters (flushed each round)',
    prometheus: 'metrics SDK + Prometheus exporter (scraped each round)',
    'off-in-context': "off, each payment in the SDK context manager's request context",
    'trace-only': 'trace SDK alone, in-memory exporter',
    'metrics-only': 'metrics SDK alone, in-memory exporter',
    'sdk-no-gateway-spans':
      "trace + metrics SDK, `gatewaySpans: 'never'` (the use case's span only)",
  };
  table(
    ['setup', 'ms of CPU per payment', 'vs off (median of rounds)', 'rounds'],
    t.modes.map((m) => [
      label[m.mode]!,
      fmt(m.ms, 3),
      fmt(m.ratio.median, 3),
      `${fmt(m.ratio.min, 2)} to ${fmt(m.ratio.max, 2)}`,
    ]),
  );
  const of = (mode: string) => t.modes.find((m) => m.mode === mode)?.ratio.median;
  for (const [mode, what, most] of [
    ['no-sdk', 'no SDK', 1.01],
    ['sdk', 'SDK', 1.1],
    ['prometheus', 'Prometheus', 1.1],
  ] as const) {
    const ratio = of(mode);
    if (ratio !== undefined)
      goal(`telemetry CPU, ${what}: ${fmt(ratio, 3)} of off <= ${fmt(most, 2)}`, ratio <= most);
  }
}

const startSandbox = () =>
  startChild<SandboxReady>(fileURLToPath(new URL('./lib/sandbox-child.ts', import.meta.url)));
const sandbox =
  want('overhead') || want('store') || want('redis') || want('redis-commands') || want('telemetry')
    ? await startSandbox()
    : undefined;
try {
  if (sandbox && want('overhead')) {
    const levels = await benchOverhead(sandbox);
    console.log(
      '## Middleware overhead (card payment 4111…1111 through the sandbox; medians of alternating rounds)\n',
    );
    const row = (connections: number, route: string, load: Load, versus = '') => [
      connections,
      route,
      fmt(load.rps),
      fmt(load.p50, 2),
      fmt(load.p99, 2),
      fmt(load.cpuMs, 2),
      load.bad,
      versus,
    ];
    const rows = levels.flatMap((l) => [
      row(l.connections, 'bare node:http + GatewayClient (floor)', l.bare),
      row(
        l.connections,
        'plain Express route + GatewayClient (reference)',
        l.expressRoute,
        `${fmt(l.expressRouteRatio, 2)} / +${fmt(l.expressRouteAddedP50, 2)} ms`,
      ),
      row(
        l.connections,
        'plain Express route, lookup then create (the same gateway calls)',
        l.expressSameCalls,
      ),
      row(
        l.connections,
        'createCheckout (express)',
        l.express,
        `${fmt(l.ratio, 2)} / +${fmt(l.addedP50, 2)} ms`,
      ),
    ]);
    table(
      [
        'connections',
        'route',
        'req/s',
        'p50 ms',
        'p99 ms',
        'app CPU ms/req',
        'non-200',
        'ratio / added p50',
      ],
      rows,
    );
    const single = levels.find((l) => l.connections === 1)!;
    const loaded = levels[levels.length - 1]!;
    goal(
      `middleware throughput ratio ${fmt(loaded.ratio, 2)} >= 0.85 (${loaded.connections} connections)`,
      loaded.ratio >= 0.85,
    );
    goal(
      `middleware added p50 ${fmt(single.addedP50, 2)} ms < 1 ms (1 connection)`,
      single.addedP50 < 1,
    );
    console.log(
      `info    a plain Express route reaches ${fmt(loaded.expressRouteRatio, 2)} of the floor by itself; ` +
        `createCheckout reaches ${fmt(loaded.express.rps / loaded.expressRoute.rps, 2)} of that route ` +
        `(${loaded.connections} connections)`,
    );
    console.log(
      `createCheckout reaches ${fmt(loaded.sameCallsRatio, 2)} of a plain Express route making the same gateway calls (${loaded.connections} connections)`,
    );
    goal(
      `createCheckout ${fmt(loaded.sameCallsRatio, 2)} of a plain Express route making the same gateway calls >= 0.95`,
      loaded.sameCallsRatio >= 0.95,
    );
  }

  if (sandbox && want('telemetry')) {
    const modes = await benchTelemetry(sandbox);
    console.log(
      `## Telemetry (createCheckout, card payment 4111…1111, ${modes[0]!.rounds} alternating rounds at 10 connections; medians)\n`,
    );
    const label = {
      off: 'telemetry off (`enabled: false`, the checkout as before)',
      'no-sdk': '@opentelemetry/api installed, no SDK registered',
      sdk: 'trace + metrics SDK, in-memory exporters',
      prometheus: 'metrics SDK + Prometheus exporter, scraped every second',
    } as const;
    table(
      ['setup', 'app CPU ms/payment', 'vs off', 'req/s', 'p50 ms', 'non-200'],
      modes.map((m) => [
        label[m.mode],
        fmt(m.cpuMs, 3),
        fmt(m.ratio, 3),
        fmt(m.rps),
        fmt(m.p50, 2),
        m.bad,
      ]),
    );
    const of = (mode: string) => modes.find((m) => m.mode === mode)!;
    goal(
      `telemetry, no SDK: CPU ${fmt(of('no-sdk').ratio, 3)} of off <= 1.01`,
      of('no-sdk').ratio <= 1.01,
    );
    goal(`telemetry, SDK: CPU ${fmt(of('sdk').ratio, 3)} of off <= 1.10`, of('sdk').ratio <= 1.1);
    goal(
      `telemetry, Prometheus: CPU ${fmt(of('prometheus').ratio, 3)} of off <= 1.10`,
      of('prometheus').ratio <= 1.1,
    );
  }

  if (want('sandbox')) {
    // A fresh sandbox, so its memory figures hold only these payments.
    const fresh = await startSandbox();
    const r = await benchSandbox(fresh).finally(() => fresh.close());
    console.log('## Sandbox (autocannon, 20 connections, signed requests)\n');
    table(
      ['operation', 'done', 'seconds', 'per second', 'failed'],
      r.phases.map((p) => [p.phase, fmt(p.done), fmt(p.seconds, 1), fmt(p.perSecond), p.failed]),
    );
    table(
      ['sandbox memory after GC', 'heap MB', 'RSS MB'],
      [
        ['at start', r.before.heapUsedMb, r.before.rssMb],
        [`after ${fmt(r.payments)} payments`, r.after.heapUsedMb, r.after.rssMb],
      ],
    );
  }

  if (sandbox && want('store')) {
    // A real v2 method step from the sandbox, so stored records have their real size.
    const client = new GatewayClient({
      token: sandbox.ready.token,
      secret: sandbox.ready.secret,
      baseUrl: sandbox.ready.url,
    });
    const outcome = await client.payments.create({
      creditCard: {
        number: '4260890000160011',
        cardHolder: 'Bench Tester',
        expiryMonth: 12,
        expiryYear: new Date().getUTCFullYear() + 3,
        cvv: '123',
        type: 'visa',
      },
      transaction: { reference: `store-${Date.now()}`, currency: 'ZAR', amount: 10_000 },
      supports3dsV2: true,
      callbackUrl: 'https://shop.example/checkout/3ds/s/callback',
      clientIp: '203.0.113.7',
      screenWidth: '1280',
      screenHeight: '800',
    });
    if (outcome.kind !== '3ds-v2-method')
      throw new Error(`expected a v2 method step, got ${outcome.kind}`);
    const rows = await benchStores(outcome.threeDSecureV2.tdsMethodContent ?? '');
    console.log('## Stores: 10,000 open 3-D Secure sessions (concurrency 50)\n');
    table(
      [
        'store',
        'sessions opened/s',
        'store calls/s opening (3 per session)',
        'store calls/s callback (4 per session)',
        'MB per 10,000 sessions',
      ],
      rows.map((r) => [
        r.store,
        fmt(r.sessionsPerSecond),
        fmt(r.openOpsPerSecond),
        fmt(r.callbackOpsPerSecond),
        fmt(r.mbPer10k, 1),
      ]),
    );
  }
  if (sandbox && want('redis')) await printRedisRoutes(sandbox, goal);
  if (sandbox && want('redis-commands')) await printRedisCommandsWithLimits(sandbox, goal);
} finally {
  await sandbox?.close();
}

if (want('failover')) await printFailover(goal);

if (want('reconcile')) {
  const rows = await benchSweep();
  console.log('## Reconciliation sweep (one reconcile() run, in process against the sandbox)\n');
  table(
    [
      'what the sweep meets',
      'attempts',
      'checked',
      'delivered',
      'gateway calls',
      'per attempt',
      'ms',
    ],
    rows.map((r) => [
      r.scenario,
      r.attempts,
      r.summary.checked,
      r.summary.delivered,
      r.gatewayCallsMade,
      fmt(r.gatewayCallsMade / r.attempts, 3),
      fmt(r.ms),
    ]),
  );
  const open = rows.find((r) => r.scenario.startsWith('attempts left open'))!;
  goal(
    `sweep: at most one gateway call per open attempt (${fmt(open.gatewayCallsMade / open.attempts, 3)})`,
    open.gatewayCallsMade <= open.attempts + 1,
  );
}

if (want('browser')) {
  const b = await benchBrowser();
  console.log(`## Browser (headless Chromium, median of ${b.loads} loads)\n`);
  table(
    ['page', 'script tag start -> interactive (ms)', 'submit click -> approved shown (ms)'],
    b.rows.map((r) => [
      r.name,
      fmt(r.interactive, 1),
      r.submitted === undefined ? '-' : fmt(r.submitted, 1),
    ]),
  );
  goal(
    `drop-in interactive ${fmt(b.interactiveRatio, 2)}x the same-content floor <= ${fmt(b.interactiveGoal, 2)}x`,
    b.interactiveRatio <= b.interactiveGoal,
  );
  console.log(
    `(with no logic, the required-work floor is ${fmt(b.requiredWorkRatio, 2)}x the same-content floor in the same run, ` +
      `and ${fmt(b.twoElementRatio, 2)}x in the drop-in's two elements)\n`,
  );
}

if (want('slow3g')) {
  const n = await benchSlowNetwork();
  console.log(
    `## The demo checkout on Slow 3G (Chromium's preset, 375x667, median of ${n.loads} loads; shift: the worst)\n`,
  );
  table(
    [
      'setup',
      'CPU',
      'first paint (ms)',
      'script and CSS asked for (ms)',
      'script arrived (ms)',
      'card number typable (ms)',
      'amount on Pay (ms)',
      'layout shift score',
    ],
    n.rows.map((r) => [
      r.setup,
      r.cpu === 1 ? 'as is' : `${r.cpu}x slower`,
      fmt(r.firstPaint),
      `${fmt(r.scriptStart)}, ${fmt(r.cssStart)}`,
      fmt(r.scriptEnd),
      fmt(r.typable),
      fmt(r.amount),
      fmt(r.shift, 3),
    ]),
  );
  console.log(
    `No JavaScript (Slow 3G, median of ${n.loads}): Pay to the shop's result page ${n.noScript
      .map((r) => `${fmt(r.payToResult)} ms (CPU ${r.cpu === 1 ? 'as is' : `${r.cpu}x slower`})`)
      .join(
        ', ',
      )}, a form post, the middleware's 303 and the result page (card 4111…1111, no 3-D Secure)\n`,
  );
  for (const r of n.rows)
    if (r.shifts.length)
      console.log(
        `What moved (${r.setup}, CPU ${r.cpu}x, the worst load):\n\n${r.shifts.map((x) => `- ${x}`).join('\n')}\n`,
      );
  for (const r of n.rows) {
    const at = `Slow 3G, ${r.setup}${r.cpu === 1 ? '' : `, CPU ${r.cpu}x slower`}`;
    goal(
      `${at}: layout shift ${fmt(r.shift, 3)} <= ${n.shiftGoal} (the form, or a skeleton of its size, from first paint)`,
      r.shiftMet,
    );
    if (r.setup === 'server-rendered') {
      const limit = r.cpu === 1 ? n.oneTripGoal : n.oneTripGoalSlowCpu;
      const latest = Math.max(r.firstPaint, r.typable, r.amount);
      goal(
        `${at}: first paint, typable and the amount by ${fmt(latest)} ms <= ${fmt(limit)} ms (one round trip and the HTML)`,
        latest <= limit,
      );
    }
    if (r.setup === 'server-rendered')
      goal(
        `${at}: typable at ${fmt(r.typable)} ms and the amount at ${fmt(r.amount)} ms, at first paint (${fmt(r.firstPaint)} ms)`,
        r.atFirstPaint,
      );
    else
      goal(
        `${at}: typable at ${fmt(r.typable)} ms and the amount at ${fmt(r.amount)} ms, within the script's round trip (it arrived at ${fmt(r.scriptEnd)} ms)`,
        r.sameTrip,
      );
  }
}

if (want('pay-to-create')) {
  const p = await benchPayToCreate();
  console.log(
    `## From Pay's arrival to the create leaving (median of ${p.payments}, sandbox on loopback)\n\n` +
      `- order not loaded first (the charged-already lookup on the click): ${fmt(p.cold, 2)} ms\n` +
      `- order loaded first (GET /config; the lookup kept with the order): ${fmt(p.loaded, 2)} ms\n` +
      `A real gateway adds one round trip to the first figure only.\n`,
  );
}

console.log(
  `## Goals\n\n${goals.join('\n') || '(none measured)'}\n\nbench took ${fmt((Date.now() - started) / 1000, 0)} s`,
);
