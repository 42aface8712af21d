// A merchant's developer, from the packed tarballs to paying apps: every package is packed, checked,
// and installed (no links, no workspace) into fresh apps under the system's temp directory.
// PG_CONSUMERS_NO_BUILD=1 skips `npm run build` (the packages are built already);
// PG_CONSUMERS_KEEP=1 keeps the scratch directory; PG_CONSUMERS_CACHE picks another npm cache;
// PG_CONSUMERS_APPS=hono,nuxt installs only those apps (with --test-name-pattern for their tests).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Locator } from 'playwright-core';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import {
  installApp,
  listFiles,
  mustRun,
  PACKAGES,
  packAll,
  repoRoot,
  run,
  scratch,
  type PackageDir,
  type Packed,
} from './lib.js';
import { pay, startServer } from './servers.js';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import {
  freePort,
  payOverHttp,
  ssrPage,
  startApp,
  type Gateway,
  type RunningApp,
} from './fetch-apps.js';
import { startRuntime, type Runtime } from './runtimes.js';

const work = scratch();
const cache = process.env.PG_CONSUMERS_CACHE; // default: npm's own, shared with `npm ci`
const sharedDir = join(repoRoot, 'test/consumers/shared');
const timings: [string, number][] = [];
let packed: Packed;
let browser: Browser | undefined;
/** One sandbox for every app on the Fetch API handler. */
let sandbox: Sandbox | undefined;

const APPS: Record<string, PackageDir[]> = {
  'react-express5': ['react', 'elements', 'express', 'sandbox'],
  'script-express4': ['elements', 'express', 'node', 'sandbox'],
  vue: ['elements'],
  svelte: ['elements'],
  'jsx-others': ['elements'],
  astro: ['elements'],
  next: ['react', 'elements', 'server'],
  nest: ['elements', 'express', 'sandbox'],
  'lit-ssr': ['elements', 'express', 'sandbox'],
  hono: ['server', 'elements'],
  sveltekit: ['server', 'elements'],
  nuxt: ['server', 'elements'],
  'react-router': ['server', 'elements'],
  runtimes: ['server'],
  'sandbox-quickstart': ['sandbox'],
  fastify: ['server', 'elements'],
  koa: ['server', 'elements'],
};
/** Where each app on the Fetch API handler imports shared/checkout.ts from. */
const CHECKOUT_AT: Record<string, string> = {
  next: 'lib/checkout.ts',
  hono: 'src/checkout.ts',
  sveltekit: 'src/lib/server/checkout.ts',
  nuxt: 'server/utils/checkout.ts',
  'react-router': 'app/checkout.server.ts',
  fastify: 'src/checkout.ts',
  koa: 'src/checkout.ts',
};
const installs = new Map<string, Promise<string>>();

/** Installs run two at a time (the network is the bottleneck, the machine has two cores). */
function queueInstalls(): void {
  const lanes: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
  const only = process.env.PG_CONSUMERS_APPS?.split(',');
  const apps = Object.entries(APPS).filter(([name]) => !only || only.includes(name));
  apps.forEach(([name, uses], i) => {
    const lane = i % lanes.length;
    const done = lanes[lane]!.then(async () => {
      const { dir, ms } = await installApp(name, work, packed, uses, cache);
      timings.push([`npm install ${name}`, ms]);
      return dir;
    });
    // Failures surface in the tests that await them; the lane goes on with the next app.
    done.catch(() => undefined);
    lanes[lane] = done.catch(() => undefined);
    installs.set(name, done);
  });
}

async function app(name: string): Promise<string> {
  const installed = installs.get(name);
  assert.ok(installed, `${name} is not among PG_CONSUMERS_APPS`);
  return installed;
}

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await fn();
  } finally {
    timings.push([label, Date.now() - started]);
  }
}

before(async () => {
  if (!process.env.PG_CONSUMERS_NO_BUILD) {
    await timed('npm run build', () =>
      mustRun('npm', ['run', 'build'], { cwd: repoRoot, env: { npm_config_loglevel: 'error' } }),
    );
  }
  packed = await timed(`npm pack (${PACKAGES.length} packages)`, () => packAll(work));
  queueInstalls();
});

after(async () => {
  await browser?.close();
  await sandbox?.close();
  await Promise.allSettled(installs.values());
  console.log('\nconsumer timings:');
  for (const [label, ms] of timings)
    console.log(`  ${label.padEnd(52)} ${(ms / 1000).toFixed(1)} s`);
  console.log('\ntarballs:');
  for (const r of Object.values(packed?.reports ?? {})) {
    console.log(
      `  ${r.filename.padEnd(36)} ${(r.size / 1024).toFixed(1)} KB packed, ${(r.unpackedSize / 1024).toFixed(1)} KB unpacked, ${r.files.length} files`,
    );
  }
  if (process.env.PG_CONSUMERS_KEEP) console.log(`\nkept ${work}`);
  else rmSync(work, { recursive: true, force: true });
});

/** A tarball's package/ directory, unpacked once. */
function unpacked(p: PackageDir): string {
  const dir = join(work, 'unpacked', p);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    const result = spawnSync('tar', ['-xzf', packed.tarballs[p], '-C', dir]);
    assert.equal(result.status, 0, `tar -xzf ${packed.tarballs[p]}`);
  }
  return join(dir, 'package');
}
function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(exportTargets);
}

test('every tarball ships what users run and read: dist, README, LICENSE, no tests, no sources, no private condition', () => {
  const license = readFileSync(join(repoRoot, 'LICENSE'), 'utf8');
  for (const p of Object.keys(packed.reports) as PackageDir[]) {
    const dir = unpacked(p);
    const files = listFiles(dir);
    const label = `@pg-checkout/${p}`;
    for (const required of ['package.json', 'README.md', 'LICENSE']) {
      assert.ok(files.includes(required), `${label} ships ${required}`);
    }
    assert.equal(readFileSync(join(dir, 'LICENSE'), 'utf8'), license, `${label}'s LICENSE`);
    const unwanted = files.filter(
      (f) =>
        /(^|\/)(src|test|tests|test-helpers|test-support)\//.test(f) ||
        /\.(test|spec)\.[cm]?[jt]sx?$/.test(f) ||
        /\.map$/.test(f) ||
        (/\.tsx?$/.test(f) && !f.endsWith('.d.ts')) ||
        // The script tag's loaders live inside pg-checkout.js; as modules they would only mislead.
        /\.lazy\.(js|d\.ts)$/.test(f),
    );
    assert.deepEqual(
      unwanted,
      [],
      `${label} ships no tests, sources, source maps or script-tag loaders`,
    );

    const manifestText = readFileSync(join(dir, 'package.json'), 'utf8');
    assert.doesNotMatch(
      manifestText,
      /pg-source|\.\/src\//,
      `${label}: no workspace-only condition`,
    );
    const manifest = JSON.parse(manifestText);
    assert.equal(manifest.license, 'MIT');
    assert.match(manifest.repository?.url ?? '', /^git\+https:\/\//, `${label}: repository`);
    assert.match(manifest.homepage ?? '', /^https:\/\//, `${label}: homepage`);
    assert.match(manifest.bugs?.url ?? '', /^https:\/\//, `${label}: bugs`);
    const targets = [
      ...exportTargets(manifest.exports),
      ...exportTargets(manifest.bin),
      manifest.main,
      manifest.types,
    ].filter(Boolean) as string[];
    for (const target of targets) {
      assert.ok(
        existsSync(join(dir, target)),
        `${label}: ${target} (from package.json) is shipped`,
      );
    }

    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    assert.doesNotMatch(readme, /\.\.\//, `${label}'s README points nowhere outside the package`);
    for (const [, link] of readme.matchAll(/\]\(([^)#\s]+)[^)]*\)/g)) {
      if (/^[a-z]+:/.test(link!)) continue;
      assert.ok(existsSync(join(dir, link!)), `${label}'s README links to ${link}, not shipped`);
    }
  }
});

test('every tarball passes publint (strict) and @arethetypeswrong/cli: exports, types and files agree for Node, CommonJS and bundlers', async () => {
  const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
  for (const p of Object.keys(packed.reports) as PackageDir[]) {
    const tarball = packed.tarballs[p];
    const lint = await run(bin('publint'), [tarball, '--strict'], { cwd: work });
    assert.equal(lint.code, 0, `publint @pg-checkout/${p}:\n${lint.out}`);
    // ESM only: node16's CommonJS reads it through require(esm), which Node >= 20.19 (our engines)
    // has; node10 resolution knows no `exports` at all. Every other rule holds.
    const types = await run(
      bin('attw'),
      [tarball, '--profile', 'node16', '--ignore-rules', 'cjs-resolves-to-esm', '--no-emoji'],
      { cwd: work },
    );
    assert.equal(types.code, 0, `attw @pg-checkout/${p}:\n${types.out}`);
  }
});

test('elements: custom-elements.json names shipped dist modules; JSX typings for six frameworks; ESM only', () => {
  const dir = unpacked('elements');
  const manifest = JSON.parse(readFileSync(join(dir, 'custom-elements.json'), 'utf8'));
  const paths = JSON.stringify(manifest).match(/"(?:path|module)":"[^"]+"/g) ?? [];
  assert.ok(paths.length > 0);
  for (const entry of new Set(paths)) {
    const path = entry.replace(/^"(?:path|module)":"\/?|"$/g, '');
    assert.match(path, /^dist\/.+\.js$/, `manifest path ${path}`);
    assert.ok(existsSync(join(dir, path)), `${path} is shipped`);
  }
  for (const fw of ['react', 'preact', 'vue', 'svelte', 'solid', 'astro']) {
    assert.ok(existsSync(join(dir, `dist/jsx/${fw}.d.ts`)), `dist/jsx/${fw}.d.ts`);
  }
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  assert.equal(pkg.type, 'module');
  assert.ok(
    !('credit-card-type' in (pkg.dependencies ?? {})),
    'credit-card-type is not a dependency (card brands are detected in src/card/brands.ts)',
  );
  for (const file of listFiles(dir).filter(
    (f) => f.endsWith('.js') && f !== 'dist/pg-checkout.js',
  )) {
    const text = readFileSync(join(dir, file), 'utf8');
    if (file.startsWith('dist/vendor/')) {
      assert.match(text, /^\/\*! [\w-]+ [\d.]+ \(MIT\)/, `${file} carries its licence`);
      assert.match(text, /export default /, `${file} is ESM`);
    } else {
      assert.doesNotMatch(text, /\brequire\(|module\.exports/, `${file} is ESM`);
    }
  }
  const redis = readFileSync(join(unpacked('server'), 'dist/stores/redis.d.ts'), 'utf8');
  assert.match(redis, /@ts-ignore[^\n]*\nimport type \{[^}]*\} from 'ioredis'/);
});

test('the browser packages and everything they pull in are ES modules (no CommonJS for Angular or Vite to warn about)', async () => {
  const dir = await app('react-express5');
  const seen = new Set<string>();
  const cjs: string[] = [];
  const visit = (name: string): void => {
    // react and react-dom are the app's own; @types/* hold no code; @lit-labs/ssr renders the markup in
    // @pg-checkout/react's `node` entry, which no browser bundle resolves.
    if (
      seen.has(name) ||
      name === 'react' ||
      name === 'react-dom' ||
      name === '@lit-labs/ssr' ||
      name.startsWith('@types/')
    )
      return;
    seen.add(name);
    const pkg = JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8'));
    const importsEsm =
      pkg.type === 'module' || JSON.stringify(pkg.exports ?? {}).includes('.mjs"') || pkg.module;
    if (!importsEsm) cjs.push(name);
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep);
  };
  visit('@pg-checkout/elements');
  visit('@pg-checkout/react');
  assert.deepEqual(cjs, [], `CommonJS-only packages under the elements: ${cjs.join(', ')}`);
});

test('React 19 + Vite + Express 5: type-checks with skipLibCheck false, builds, pays 4111… and 4000…3063 through the challenge', async () => {
  const dir = await app('react-express5');
  cpSync(join(sharedDir, 'server.ts'), join(dir, 'server.ts'));
  assert.ok(!existsSync(join(dir, 'node_modules/ioredis')), 'the app has no ioredis');
  await timed('react-express5: tsc (app, entry events)', () =>
    mustRun('npm', ['run', 'typecheck'], { cwd: dir }),
  );
  await timed('react-express5: vite build + tsc server', () =>
    mustRun('npm', ['run', 'build'], { cwd: dir }),
  );
  browser ??= await launchChromium();
  const server = await startServer(dir, 'dist');
  try {
    const frictionless = await pay(browser, server, '4111111111111111', false);
    timings.push(['react-express5: pay 4111 (frictionless)', frictionless.ms]);
    const challenged = await pay(browser, server, '4000000000003063', true);
    timings.push(['react-express5: pay 3063 (challenge, code 1234)', challenged.ms]);
  } finally {
    await server.stop();
  }
});

test('script tag + Express 4: the server type-checks, pays 4111… and 4000…3063; @pg-checkout/node pays directly', async () => {
  const dir = await app('script-express4');
  cpSync(join(sharedDir, 'server.ts'), join(dir, 'server.ts'));
  cpSync(join(sharedDir, 'node-client.ts'), join(dir, 'node-client.ts'));
  const express = JSON.parse(
    readFileSync(join(dir, 'node_modules/express/package.json'), 'utf8'),
  ) as { version: string };
  assert.match(express.version, /^4\./);
  await timed('script-express4: tsc', () => mustRun('npm', ['run', 'build'], { cwd: dir }));
  const direct = await mustRun(process.execPath, ['build/node-client.js'], { cwd: dir });
  assert.deepEqual(JSON.parse(direct.out.trim().split('\n').at(-1)!), {
    kind: 'approved',
    executed: 'executed',
    status: 'SETTLED',
  });
  browser ??= await launchChromium();
  const server = await startServer(dir, 'public');
  try {
    const frictionless = await pay(browser, server, '4111111111111111', false);
    timings.push(['script-express4: pay 4111 (frictionless)', frictionless.ms]);
    const challenged = await pay(browser, server, '4000000000003063', true);
    timings.push(['script-express4: pay 3063 (challenge, code 1234)', challenged.ms]);
  } finally {
    await server.stop();
  }
});

test('NestJS (Express adapter), CommonJS and ESM: require() of the ESM packages works on Node >= 20.19; both pay, CommonJS through the challenge too', async () => {
  const dir = await app('nest');
  // One source, built twice: main.cts compiles to CommonJS (require), main.mts to ESM (import).
  cpSync(join(dir, 'main.ts'), join(dir, 'main.cts'));
  cpSync(join(dir, 'main.ts'), join(dir, 'main.mts'));
  cpSync(join(repoRoot, 'test/consumers/apps/script-express4/public'), join(dir, 'public'), {
    recursive: true,
  });
  await timed('nest: tsc (CommonJS and ESM)', () => mustRun('npm', ['run', 'build'], { cwd: dir }));
  const cjs = readFileSync(join(dir, 'build/main.cjs'), 'utf8');
  assert.match(
    cjs,
    /require\("@pg-checkout\/express"\)/,
    'the CommonJS build requires the package',
  );
  assert.doesNotMatch(cjs, /\bimport\(/, 'no dynamic import() to lean on');
  browser ??= await launchChromium();
  for (const [entry, cards] of [
    ['build/main.cjs', ['4111111111111111', '4000000000003063']],
    ['build/main.mjs', ['4111111111111111']],
  ] as const) {
    const server = await startServer(dir, 'public', entry);
    try {
      for (const card of cards) {
        const paid = await pay(browser, server, card, card === '4000000000003063');
        timings.push([`nest ${entry}: pay ${card.slice(-4)}`, paid.ms]);
      }
    } finally {
      await server.stop();
    }
  }
});

test("Lit SSR + Express 5 under a CSP without 'unsafe-inline': styled before hydration by serverStyleHashes(), no violation, pays 4111… and 4000…3063", async () => {
  const dir = await app('lit-ssr');
  browser ??= await launchChromium();
  const server = await startServer(dir, '.', 'server.js');
  try {
    const looks = async (hydrate: boolean) => {
      const context = await browser!.newContext();
      try {
        if (!hydrate) await context.route('**/client.js', (route) => route.abort());
        const page = await context.newPage();
        await page.addInitScript(() => {
          const seen: string[] = [];
          Object.assign(window, { violations: seen });
          document.addEventListener(
            'securitypolicyviolation',
            (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`),
            true,
          );
        });
        await page.goto(server.url);
        const pay = page.locator('pg-card-form button[type=submit]');
        if (hydrate) await expectText(pay, /\d/); // hydrated and /config read: the amount is shown
        return {
          background: await pay.evaluate((b) => getComputedStyle(b).backgroundColor),
          disabled: await pay.isDisabled(),
          violations: await page.evaluate(
            () => (window as unknown as { violations: string[] }).violations,
          ),
        };
      } finally {
        await context.close();
      }
    };
    const primary = 'rgb(29, 78, 216)'; // --pg-color-primary's default
    assert.deepEqual(await looks(false), { background: primary, disabled: true, violations: [] });
    assert.deepEqual(await looks(true), { background: primary, disabled: false, violations: [] });
    for (const card of ['4111111111111111', '4000000000003063']) {
      const paid = await pay(browser, server, card, card === '4000000000003063');
      timings.push([`lit-ssr: pay ${card.slice(-4)}`, paid.ms]);
    }
  } finally {
    await server.stop();
  }
});

async function expectText(locator: Locator, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!pattern.test((await locator.textContent()) ?? '')) {
    assert.ok(Date.now() < deadline, `${pattern} in ${await locator.textContent()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Lines (1-based) of `file` that the checker's output reports an error on. */
function errorLines(out: string, file: string): number[] {
  const lines = new Set<number>();
  for (const line of out.split('\n')) {
    if (!line.includes(file)) continue;
    const tsc = /\((\d+),\d+\): error/.exec(line);
    const svelte = /ERROR "[^"]*" (\d+):\d+/.exec(line);
    const match = tsc ?? svelte;
    if (match) lines.add(Number(match[1]));
  }
  return [...lines].sort((a, b) => a - b);
}

test('Vue 3: vue-tsc passes the app and reports a wrong attribute value and a misspelled event; every event name survives the template compiler', async () => {
  const dir = await app('vue');
  await timed('vue: vue-tsc', () => mustRun('npm', ['run', 'typecheck'], { cwd: dir }));
  const wrong = await timed('vue: vue-tsc (mistakes)', () =>
    run('npm', ['run', 'typecheck:wrong'], { cwd: dir }),
  );
  assert.notEqual(wrong.code, 0, wrong.out);
  assert.deepEqual(errorLines(wrong.out, 'Wrong.vue'), [8, 9], wrong.out);

  // `@pg-threeds-start` must reach addEventListener('pg-threeds-start'): compile the template with
  // Vue's own compiler, then name the event the way runtime-dom does (hyphenate the key after `on`).
  const vue = createRequire(join(dir, 'node_modules/vue/package.json'));
  const { compile } = vue('@vue/compiler-dom') as {
    compile(template: string, options: { isCustomElement(tag: string): boolean }): { code: string };
  };
  const { hyphenate } = vue('@vue/shared') as { hyphenate(name: string): string };
  const listened = (event: string): string => {
    const { code } = compile(`<pg-checkout @${event}="f" />`, {
      isCustomElement: (tag) => tag.startsWith('pg-'),
    });
    const key = /"?(on[A-Z][\w]*)"?:/.exec(code)?.[1];
    assert.ok(key, code);
    return hyphenate(key.slice(2));
  };
  assert.equal(listened('pg-3ds-start'), 'pg3ds-start', 'the check catches a digit after a hyphen');
  const manifest = JSON.parse(
    readFileSync(join(dir, 'node_modules/@pg-checkout/elements/custom-elements.json'), 'utf8'),
  );
  const events = new Set<string>(
    manifest.modules.flatMap((m: { declarations?: { events?: { name: string }[] }[] }) =>
      (m.declarations ?? []).flatMap((d) => (d.events ?? []).map((e) => e.name)),
    ),
  );
  assert.ok(events.size >= 9);
  for (const event of events) assert.equal(listened(event), event, `Vue hears ${event}`);
});

test('Svelte 5: svelte-check passes the app and reports a wrong attribute value and a misspelled event', async () => {
  const dir = await app('svelte');
  const bin = join(dir, 'node_modules/.bin/svelte-check');
  await timed('svelte: svelte-check', () =>
    mustRun(bin, ['--tsconfig', './tsconfig.json', '--output', 'machine'], { cwd: dir }),
  );
  const wrong = await timed('svelte: svelte-check (mistakes)', () =>
    run(bin, ['--tsconfig', './tsconfig.wrong.json', '--output', 'machine'], { cwd: dir }),
  );
  assert.notEqual(wrong.code, 0, wrong.out);
  assert.deepEqual(errorLines(wrong.out, 'Wrong.svelte'), [7, 8], wrong.out);
});

test('Astro: astro check passes the page and reports wrong attribute values', async () => {
  const dir = await app('astro');
  const env = { ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', FORCE_COLOR: '0' };
  const bin = join(dir, 'node_modules/.bin/astro');
  await timed('astro: astro check', () => mustRun(bin, ['check'], { cwd: dir, env }));
  cpSync(join(dir, 'wrong/wrong.astro'), join(dir, 'src/pages/wrong.astro'));
  const wrong = await timed('astro: astro check (mistakes)', () =>
    run(bin, ['check'], { cwd: dir, env }),
  );
  assert.notEqual(wrong.code, 0, wrong.out);
  // astro check colours its output whatever NO_COLOR says.
  // eslint-disable-next-line no-control-regex
  const plain = wrong.out.replace(/\x1b\[[0-9;]*m/g, '');
  const lines = [...plain.matchAll(/wrong\.astro:(\d+):\d+ - error/g)].map((m) => Number(m[1]));
  assert.deepEqual([...new Set(lines)].sort(), [3, 4], wrong.out);
});

test('Preact and Solid: the elements type-check in their JSX, mistakes reported', async () => {
  const dir = await app('jsx-others');
  const tsc = join(dir, 'node_modules/.bin/tsc');
  for (const fw of ['preact', 'solid']) {
    await timed(`jsx-others: tsc ${fw}`, () =>
      mustRun(tsc, ['-p', `tsconfig.${fw}.json`], { cwd: dir }),
    );
  }
});

test('the sandbox quick start as written: `npx @pg-checkout/sandbox` in an empty project prints the .env lines and serves the signed API; no document says `npx pg-sandbox`', async () => {
  const dir = await app('sandbox-quickstart');
  // --no-install: the tarball is installed; the same command in an empty project fetches it by name.
  const child = spawn('npx', ['--no-install', '@pg-checkout/sandbox', '--port', '0', '--quiet'], {
    cwd: dir,
    detached: true, // its own process group: npx runs the bin through a shell
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk));
  try {
    const deadline = Date.now() + 60_000;
    while (!/^PG_SECRET=.+$/m.test(out)) {
      assert.ok(child.exitCode === null, `npx @pg-checkout/sandbox exited:\n${out}`);
      assert.ok(Date.now() < deadline, `no .env lines within 60 s:\n${out}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const env = Object.fromEntries(
      [...out.matchAll(/^(PG_BASE_URL|PG_TOKEN|PG_SECRET)=(.+)$/gm)].map((m) => [m[1]!, m[2]!]),
    );
    assert.match(env.PG_BASE_URL ?? '', /^http:\/\/127\.0\.0\.1:\d+$/, out);
    assert.equal(env.PG_TOKEN, 'sandbox-token');
    assert.equal(env.PG_SECRET, 'sandbox-secret');
    assert.doesNotMatch(out, /npx pg-sandbox/);
    // A signed call with exactly those three values, as the merchant's client will make.
    const url = `${env.PG_BASE_URL}/pg/api/v2/util/validate`;
    const signature = createHmac('sha256', env.PG_SECRET!).update(url).digest('hex');
    const answer = await fetch(url, {
      headers: { 'x-token': env.PG_TOKEN!, 'x-signature': signature },
    });
    assert.equal(answer.status, 200);
    assert.equal(((await answer.json()) as { success: boolean }).success, true);
    const cards = await fetch(`${env.PG_BASE_URL}/_sandbox/test-cards`);
    assert.equal(cards.status, 200);
  } finally {
    if (child.exitCode === null) {
      const exited = once(child, 'exit');
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  }
  // An unscoped name is not ours on the registry: nothing we ship or document may tell anyone to run it.
  const documents = [
    join(repoRoot, 'README.md'),
    ...listFiles(join(repoRoot, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(repoRoot, 'docs', f)),
    ...PACKAGES.map((p) => join(unpacked(p), 'README.md')),
  ];
  for (const file of documents)
    assert.doesNotMatch(readFileSync(file, 'utf8'), /npx pg-sandbox/, file);
});

async function gateway(): Promise<Gateway> {
  sandbox ??= await createSandbox({ port: 0, host: '127.0.0.1' });
  return { url: sandbox.url, token: sandbox.token, secret: sandbox.secret };
}

/** Copies shared/checkout.ts into the app and runs its `npm run build`. */
async function buildFetchApp(name: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const dir = await app(name);
  const target = join(dir, CHECKOUT_AT[name]!);
  mkdirSync(dirname(target), { recursive: true });
  cpSync(join(sharedDir, 'checkout.ts'), target);
  await timed(`${name}: npm run build`, () =>
    mustRun('npm', ['run', 'build'], { cwd: dir, env, timeoutMs: 600_000 }),
  );
  return dir;
}

/** The server-rendered page, then 4111… and 4000…3063 (challenge, code 1234) through /api/checkout. */
async function payThroughApp(name: string, running: RunningApp): Promise<void> {
  await ssrPage(running);
  for (const [card, label] of [
    ['4111111111111111', 'pay 4111 (frictionless)'],
    ['4000000000003063', 'pay 3063 (challenge, code 1234)'],
  ] as const) {
    const status = await timed(`${name}: ${label}`, () => payOverHttp(running, card));
    assert.equal(status, 'approved', `${name}: ${card.slice(-4)}`);
  }
}

test('Next.js: route handlers on createCheckoutHandler pay 4111… and 4000…3063 under next start; the client page hydrates without errors', async () => {
  const env = { NEXT_TELEMETRY_DISABLED: '1' };
  const dir = await buildFetchApp('next', env);
  const port = await freePort();
  const next = join(dir, 'node_modules/.bin/next');
  const running = await timed('next: start', async () =>
    startApp(
      dir,
      next,
      ['start', '--port', String(port), '--hostname', '127.0.0.1'],
      await gateway(),
      env,
      port,
    ),
  );
  try {
    await payThroughApp('next', running);
    // Next's server rendering resolved @pg-checkout/react's `node` entry: the drop-in's markup is in the
    // HTML (declarative shadow DOM), so nothing moves when it hydrates.
    const html = await (await fetch(running.url)).text();
    assert.match(
      html,
      /<pg-checkout[^>]*><template shadowrootmode="open">/,
      'server-rendered drop-in',
    );
    browser ??= await launchChromium();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (msg) => {
      // The favicon's 404 is expected.
      if (msg.type() === 'error' && !/status of 404/.test(msg.text())) problems.push(msg.text());
    });
    await page.goto(running.url);
    await page.locator('pg-card-form input[autocomplete="cc-number"]').waitFor();
    await page.waitForTimeout(500);
    await page.close();
    assert.deepEqual(problems, [], 'hydration and rendering without errors');
  } finally {
    await running.stop();
  }
});

test('Hono on @hono/node-server: tsc, then 4111… and 4000…3063 through app.all(/api/checkout/*); the page renders <pg-checkout>', async () => {
  const dir = await buildFetchApp('hono');
  const running = await timed('hono: start', async () =>
    startApp(dir, process.execPath, ['build/server.js'], await gateway()),
  );
  try {
    await payThroughApp('hono', running);
  } finally {
    await running.stop();
  }
});

for (const [name, label] of [
  ['fastify', 'Fastify 5: a ten-line bridge (bodies left unread for the handler, request.ip)'],
  ['koa', 'Koa 3: a ten-line middleware (the raw body, ctx.ip)'],
] as const) {
  test(`${label}: tsc with exactOptionalPropertyTypes and skipLibCheck false, then 4111… and 4000…3063 through /api/checkout/*; the page renders <pg-checkout>`, async () => {
    const dir = await buildFetchApp(name);
    const running = await timed(`${name}: start`, async () =>
      startApp(dir, process.execPath, ['build/server.js'], await gateway()),
    );
    try {
      await payThroughApp(name, running);
    } finally {
      await running.stop();
    }
  });
}

test('SvelteKit (adapter-node): a +server.ts fallback pays 4111… and 4000…3063 (the bank’s cross-site form post allowed); the page server-renders <pg-checkout>', async () => {
  const dir = await buildFetchApp('sveltekit');
  const running = await timed('sveltekit: start', async () =>
    startApp(dir, process.execPath, ['build'], await gateway()),
  );
  try {
    await payThroughApp('sveltekit', running);
  } finally {
    await running.stop();
  }
});

test('Nuxt 4 (Nitro): a server route with toWebRequest/sendWebResponse pays 4111… and 4000…3063; the page server-renders <pg-checkout>', async () => {
  const dir = await buildFetchApp('nuxt', { NUXT_TELEMETRY_DISABLED: '1' });
  const running = await timed('nuxt: start', async () =>
    startApp(dir, process.execPath, ['.output/server/index.mjs'], await gateway()),
  );
  try {
    await payThroughApp('nuxt', running);
  } finally {
    await running.stop();
  }
});

test('React Router 7 (framework mode): a resource route’s loader and action pay 4111… and 4000…3063 behind Express; the page server-renders <pg-checkout>', async () => {
  const dir = await buildFetchApp('react-router');
  const running = await timed('react-router: start', async () =>
    startApp(dir, process.execPath, ['server.js'], await gateway()),
  );
  try {
    await payThroughApp('react-router', running);
  } finally {
    await running.stop();
  }
});

/** The runtimes app, built once: the Worker bundled as wrangler would, and type-checked. */
let runtimesBuilt: Promise<string> | undefined;
function runtimesApp(): Promise<string> {
  runtimesBuilt ??= app('runtimes').then(async (dir) => {
    await timed('runtimes: npm run build (esbuild, tsc)', () =>
      mustRun('npm', ['run', 'build'], { cwd: dir }),
    );
    return dir;
  });
  return runtimesBuilt;
}

for (const [runtime, title] of [
  ['workerd', 'Cloudflare Workers (workerd through Miniflare, no nodejs_compat, MemoryStore)'],
  ['workerd-nodejs-compat', 'Cloudflare Workers with nodejs_compat (the same bundle, MemoryStore)'],
  ['workerd-durable-object', 'Cloudflare Workers with the guide’s Durable Object store'],
  ['bun', 'Bun (Bun.serve)'],
  ['deno', 'Deno (Deno.serve)'],
] as const satisfies readonly (readonly [Runtime, string])[]) {
  test(`${title}: createCheckoutHandler from the tarballs pays 4111… and 4000…3063`, async () => {
    const dir = await runtimesApp();
    const running = await timed(`${runtime}: start`, async () =>
      startRuntime(dir, runtime, await gateway()),
    );
    try {
      await payThroughApp(runtime, running);
    } finally {
      await running.stop();
    }
  });
}
