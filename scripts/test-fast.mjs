#!/usr/bin/env node
// `npm run test:fast`: lint, floors, types, every Node test that needs no browser (the elements' pure unit
// tests among them) and the money tests again on the strict sandbox, in two lanes side by side;
// the first failure stops both, so a broken change is known in two or three minutes, not fifteen.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

// Every Node test of these packages runs here, slowest package first; a test that needs a browser is
// named `*.browser.test.ts` and runs in `npm run test:rest` instead.
const FAST = [
  'packages/express',
  'packages/server',
  'packages/sandbox',
  'packages/node',
  'packages/protocol',
  // The repository's own scripts (scripts/test: the floors checker); their fixtures are not tests.
  'scripts',
];

const root = new URL('../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

// A workspace with tests in neither tier would silently stop being tested.
const rest = manifest.scripts['test:rest'];
const hasTests = (w) =>
  JSON.parse(readFileSync(new URL(`${w}/package.json`, root), 'utf8')).scripts?.test;
const untested = manifest.workspaces.filter(
  (w) => hasTests(w) && !FAST.includes(w) && !rest.includes(`-w ${w}`),
);
if (untested.length > 0) {
  console.error(`test:fast: ${untested.join(', ')} run in neither test:fast nor test:rest`);
  process.exit(1);
}

const files = FAST.flatMap((dir) =>
  // Sub-folders too: the core's HTTP suite lives in packages/server/test/http.
  readdirSync(new URL(`${dir}/test/`, root), { recursive: true })
    .filter((name) => name.endsWith('.test.ts') && !name.endsWith('.browser.test.ts'))
    .filter((name) => !name.split(/[\\/]/).includes('fixtures'))
    .sort()
    .map((name) => `${dir}/test/${name}`),
);
// More files than cores: many of them wait on servers, timers and Redis failovers, not on the CPU.
const concurrency = Number(process.env.TEST_CONCURRENCY) || availableParallelism() + 1;

// Files that measure what a load or a failover costs within a time window: run alone after the
// others, so the CPU the parallel files take cannot make them miss their window (seen under load).
const ALONE = [
  'packages/server/test/http/limits-cost.test.ts',
  'packages/server/test/http/redis-sentinel-checkout.test.ts',
  'packages/server/test/http/redis-cluster-checkout.test.ts',
  'packages/server/test/http/sandbox-faults.test.ts',
];
for (const file of ALONE)
  if (!files.includes(file)) {
    console.error(`test:fast: ${file} is listed to run alone but is not a test file any more`);
    process.exit(1);
  }
const together = files.filter((f) => !ALONE.includes(f));
const nodeTests = (label, list, n) => [
  `${label} (${list.length} files, ${n} at a time)`,
  process.execPath,
  [
    '--conditions=pg-source',
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${n}`,
    '--test-reporter=spec',
    ...list,
  ],
];

const lanes = [
  {
    // Short outputs, printed whole when the lane ends so they do not cut through the tests' report.
    buffered: true,
    steps: [
      ['lint', 'npm', ['run', '--silent', 'lint']],
      // Each package's floors (scripts/check-floors.mjs): no import up, no cycle.
      ['floors', process.execPath, ['scripts/check-floors.mjs']],
      ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
      // The money tests again on the strict sandbox (scripts/test-strict.mjs), beside the other lane.
      ['money tests on the strict sandbox', process.execPath, ['scripts/test-strict.mjs']],
      // The elements' pure unit tests (codes, cards, validators, amounts, messages, the localize
      // controller) in Node; they run in Chromium and Firefox too, with the rest, in test:rest.
      [
        'elements unit tests in Node',
        'npm',
        ['run', '--silent', 'test:unit', '-w', 'packages/elements'],
      ],
    ],
  },
  {
    buffered: false,
    steps: [
      nodeTests('node tests', together, concurrency),
      nodeTests('node tests that time a load', ALONE, 1),
    ],
  },
];

const started = Date.now();
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;
const running = new Set();
const timings = [];
let failed = false;

function stopAll(signal = 'SIGTERM') {
  // Each step leads its own process group, so test files and the Redis servers they started go too.
  for (const child of running) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  }
}

function runStep([name, command, args], buffered) {
  return new Promise((resolve) => {
    const since = Date.now();
    const child = spawn(command, args, {
      cwd: root,
      detached: true,
      stdio: ['ignore', buffered ? 'pipe' : 'inherit', buffered ? 'pipe' : 'inherit'],
    });
    running.add(child);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => {
      running.delete(child);
      if (output) process.stdout.write(`\n── ${name} ──\n${output}`);
      const ok = code === 0;
      // A step ended by the other lane's failure was stopped, not failed.
      const state = ok ? '' : failed || signal ? 'stopped ' : 'FAILED ';
      timings.push(`${name} ${state}${seconds(since)}`);
      resolve(ok);
    });
  });
}

async function runLane({ steps, buffered }) {
  for (const step of steps) {
    if (failed) return;
    if (!(await runStep(step, buffered))) {
      if (!failed) console.error(`\ntest:fast: ${step[0]} failed, stopping the rest`);
      failed = true;
      stopAll();
      return;
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll(signal);
    process.exit(130);
  });
}

await Promise.all(lanes.map(runLane));
console.log(
  `\ntest:fast ${failed ? 'failed' : 'passed'} in ${seconds(started)}: ${timings.join(', ')}`,
);
process.exit(failed ? 1 : 0);
