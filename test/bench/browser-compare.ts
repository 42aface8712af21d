/**
 * `npm run bench:compare -- a.js b.js ...`: script-tag builds of `dist/pg-checkout.js` side by side with
 * the same-content floor (the reference of the interactive goal), the required-work floor and the
 * two-element floor (lib/floor.ts), on the page `npm run bench -- --only=browser` measures (the
 * README's drop-in), for trying a change to the card form's time to interactive before it lands:
 *
 *   cp packages/elements/dist/pg-checkout.js /tmp/before.js
 *   (change, then `npm run build -w @pg-checkout/elements`)
 *   npm run bench:compare -- /tmp/before.js packages/elements/dist/pg-checkout.js
 *
 * Each round loads the floor and every build once, in a new random order (the load before weighs on the
 * next: its renderer is still closing), each in a new browser context with a Chromium trace on. Per
 * build it prints the medians of wall time to interactive (the bench's figure, and its ratio to the
 * floor) and of main-thread time in the same span, split by phase. The same file given twice shows
 * the noise. Main-thread time moves less with the machine's load than wall time; a change worth
 * landing shows in both.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import {
  DROP_IN,
  page,
  PG_INTERACTIVE,
  REQUIRED_INTERACTIVE,
  SAME_INTERACTIVE,
  serve,
  TWO_INTERACTIVE,
} from './browser.js';
import { ensureElementsBuilt, scriptTag } from './lib/elements-build.js';
import { quantile } from './lib/pool.js';

const ROUNDS = Number(process.env.BENCH_BROWSER_LOADS ?? 25);
/** Trace events of the renderer's main thread, summed per load between `t0` and interactive. */
const PHASES = [
  'EvaluateScript',
  'ParseHTML',
  'UpdateLayoutTree',
  'Layout',
  'Paint',
  'FunctionCall',
] as const;

// npm runs this in test/: paths are taken from where `npm run` was typed (INIT_CWD), as the example shows.
const builds = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('-'))
  .map((a) => resolve(process.env.INIT_CWD ?? process.cwd(), a));
if (builds.length === 0) {
  console.error('usage: npm run bench:compare -- <pg-checkout.js> [<pg-checkout.js> ...]');
  process.exit(2);
}
for (const file of builds)
  if (!existsSync(file)) {
    console.error(`${file}: no such file`);
    process.exit(2);
  }

// The server also serves dist's own file (and the floor), and a build may come without its 3-D Secure file.
ensureElementsBuilt();

// Each build in a folder of its own, with the 3-D Secure file beside it (its own, else dist's), as a shop serves them.
const files: Record<string, [string, string | Uint8Array]> = {};
builds.forEach((file, i) => {
  const beside = join(dirname(file), 'pg-checkout.3ds.js');
  files[`/b${i}/pg-checkout.js`] = ['text/javascript', readFileSync(file)];
  files[`/b${i}/pg-checkout.3ds.js`] = [
    'text/javascript',
    readFileSync(existsSync(beside) ? beside : join(dirname(scriptTag), 'pg-checkout.3ds.js')),
  ];
  files[`/b${i}.html`] = ['text/html', page(`/b${i}/pg-checkout.js`, DROP_IN)];
});

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

const server = await serve(files);
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await launchChromium();

/** The floors' keys, beside the builds' indexes (0 and up). */
const SAME = -1;
const REQUIRED = -2;
const TWO = -3;

/** One load: wall ms to interactive, and main-thread ms in that span (all tasks, and per phase). */
async function load(which: number) {
  const context = await browser.newContext();
  try {
    const p = await context.newPage();
    await browser.startTracing(p, {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'blink.user_timing',
      ],
    });
    const [url, check] =
      which === SAME
        ? ['same.html', SAME_INTERACTIVE]
        : which === REQUIRED
          ? ['required.html', REQUIRED_INTERACTIVE]
          : which === TWO
            ? ['two.html', TWO_INTERACTIVE]
            : [`b${which}.html`, PG_INTERACTIVE];
    await p.goto(`${base}/${url}`);
    const wall = (await p.evaluate(check)) as number;
    const events = (
      JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }
    ).traceEvents;
    const t0 = events.find((e) => e.name === 't0');
    if (!t0) throw new Error('no t0 mark in the trace');
    const main = events.find(
      (e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === t0.pid,
    );
    const span = events.filter(
      (e) =>
        e.ph === 'X' &&
        e.pid === t0.pid &&
        e.tid === main?.tid &&
        e.ts >= t0.ts &&
        e.ts <= t0.ts + wall * 1000,
    );
    const ms = (name: string) =>
      span.filter((e) => e.name === name).reduce((sum, e) => sum + (e.dur ?? 0), 0) / 1000;
    return { wall, cpu: ms('RunTask'), phases: PHASES.map(ms) };
  } finally {
    await context.close();
  }
}

/** Fisher-Yates: every order equally likely (a random comparator in sort() is not). */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

type Load = Awaited<ReturnType<typeof load>>;
const results = new Map<number, Load[]>([
  [SAME, []],
  [REQUIRED, []],
  [TWO, []],
  ...builds.map((_, i) => [i, []] as [number, Load[]]),
]);
try {
  for (const which of results.keys()) await load(which); // warm the server and the browser
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of shuffled([...results.keys()])) results.get(which)!.push(await load(which));
  }
} finally {
  await browser.close();
  server.closeAllConnections();
  server.close();
}

const median = (values: number[]) => quantile(values, 0.5);
const floorWall = median(results.get(SAME)!.map((r) => r.wall));
const row = (name: string, loads: Load[]) => {
  const wall = median(loads.map((r) => r.wall));
  return `| ${name} | ${wall.toFixed(1)} | ${(wall / floorWall).toFixed(2)} | ${median(loads.map((r) => r.cpu)).toFixed(1)} | ${PHASES.map((_, k) => median(loads.map((r) => r.phases[k]!)).toFixed(1)).join(' | ')} |`;
};
console.log(
  `\n${ROUNDS} rounds, medians in ms; interactive as in \`npm run bench -- --only=browser\`; main thread from t0 to interactive\n`,
);
console.log(`| page | interactive | x floor | main thread | ${PHASES.join(' | ')} |`);
console.log(`|---|---|---|---|${PHASES.map(() => '---').join('|')}|`);
console.log(row("same-content floor (the goal's reference)", results.get(SAME)!));
console.log(
  row(
    'required-work floor (the same, plus the order read onto Pay and two storage reads)',
    results.get(REQUIRED)!,
  ),
);
console.log(
  row(
    "two-element floor (the required-work floor in the drop-in's two elements)",
    results.get(TWO)!,
  ),
);
builds.forEach((file, i) => console.log(row(`${i + 1}: ${file}`, results.get(i)!)));
