// Builds dist/: ESM per source file (one entry per element, class files without side effects), the
// declarations, one minified IIFE for a script tag (lit inside), custom-elements.json and, from it, the
// frameworks' JSX typings (dist/jsx/). CommonJS dependencies are bundled into dist/vendor/ as ESM, so
// the package is ESM only (Angular and Vite warn about CommonJS).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Buffer } from 'node:buffer';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import { minify } from 'terser';
import { writeJsxTypes } from './jsx-types.mjs';
import { minifyTemplatesPlugin } from './minify-templates.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');
const dist = join(root, 'dist');
const iifeFile = join(dist, 'pg-checkout.js');
const BUDGET = 25 * 1024;
// Issue 29: 19.5 KB, so the next feature has room under the 20 KB it was.
const GOAL = 19.5 * 1024;
const sizeOnly = process.argv.includes('--size-only');
// --no-types: the JavaScript only (what a page loads), for the demo shop's start: no declarations,
// manifest or JSX typings, the slow half of a build that nothing served needs.
const noTypes = process.argv.includes('--no-types');

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test-helpers' ? [] : sources(path);
    // `*.lazy.ts` are the script tag's loaders (they take the place of the 3-D Secure entries
    // there and read the script's own URL): nothing an ESM import could use, so not shipped as modules.
    return name.endsWith('.ts') &&
      !name.endsWith('.test.ts') &&
      !name.endsWith('.d.ts') &&
      !name.endsWith('.lazy.ts')
      ? [path]
      : [];
  });
}

const tsconfig = join(root, 'tsconfig.json');
// The bundles take the workspace's own packages (the protocol's vocabulary) from their sources, as
// tsconfig.json's customConditions do: no package needs building first.
const conditions = ['pg-source'];

// Dependencies published as CommonJS only: bundled into dist/vendor/<name>.js with their licence.
const COMMONJS = [];

async function vendor(name) {
  const packageDir = dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
  const { version, license } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const notice = readFileSync(join(packageDir, 'LICENSE'), 'utf8').trim();
  await build({
    entryPoints: [name],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outfile: join(dist, 'vendor', `${name}.js`),
    banner: { js: `/*! ${name} ${version} (${license}), bundled as ESM\n${notice}\n*/` },
    logLevel: 'warning',
  });
}

/**
 * Private members of our classes, renamed to one or two letters in the script-tag file (about 0.3 KB
 * gzip). Listed by name, not by pattern: a name here must not be a property anywhere else (lit, the DOM,
 * the middleware's JSON, event details, the context, public members) nor be read through a string, e.g.
 * `changed.has('selectedToken')`; test/consumers checks the shipped file still pays end to end.
 */
const PRIVATE_NAMES = new RegExp(
  `^(${[
    'allowSaveCard',
    'announcement',
    'applyFormatted',
    'attachment',
    'authenticate',
    'cancelRequested',
    'challenge',
    'challengeWindow',
    'configRequest',
    'connection',
    'consumer',
    'dirty',
    'failure',
    'fetchImpl',
    'finalState',
    'finish',
    'flow',
    'focusFrame',
    'focusMessage',
    'frameName',
    'inFlight',
    'invalidFields',
    'keepSecretOf',
    'loadConfig',
    'look',
    'methodLoaded',
    'methodSource',
    'methodStep',
    'offered',
    'onBlur',
    'onChallengeKeydown',
    'onCvvInput',
    'onExpiryInput',
    'onHolderInput',
    'onMethodLoad',
    'onNumberInput',
    'onSelectCard',
    'onSubmit',
    'onThreeDSStart',
    'ownApi',
    'paymentRequest',
    'phase',
    'prepare',
    'provider',
    'release',
    'renderAccepted',
    'renderCardFields',
    'renderChallenge',
    'renderField',
    'renderMessage',
    'renderMethodFrame',
    'renderSavedCards',
    'renderThreeDS',
    'resume',
    'retry',
    'runFlow',
    'secrets',
    'selectedToken',
    'setStatus',
    'showChallenge',
    'storedCards',
    'touched',
    'usingSavedCard',
    'validators',
    'waiting',
    'whenConnected',
    'moreTime',
    'onSchemeChange',
    'readScheme',
    'schemeMedia',
    'schemeSeen',
    'timeoutText',
    'timeoutWarning',
    // the payment-flow controller (checkout/payment-flow.ts) and its steps (checkout/payment-flow.steps.ts)
    '_api',
    '_inFlight',
    'checkOrder',
    'closes',
    'conclude',
    'recallOrder',
    'resumePayment',
    'runAlone',
    'setMessage',
    'setReference',
    'settleState',
    'showThreeDS',
    'shownTotal',
    'setConfig',
    '_config',
    '_message',
    '_storedCards',
    '_threeDS',
    'configLoad',
    'loadSteps',
    'localize',
    'notLoaded',
    'onPageShow',
    'orderClosed',
    'readConfig',
    'steps',
    'threeDSChecking',
    'useEndpoint',
    // the localize controller (shared/localize-controller.ts)
    'inherit',
    'madeFor',
    'ownTranslator',
    'translator',
    // the components' and the 3-D Secure flow's own members (`checkout`: the context they receive)
    'checkout',
    'confirmCancel',
    'moreTimeRequested',
    'onThreeDSChecking',
    'ownApiOption',
    'readServerFields',
    'setView',
    'typedBeforeHydration',
    // the server styles' controller (shared/server-styles.ts)
    'done',
  ].join('|')})$`,
);

/** Lit's licence asks for its notice in every copy; one line names it (the full text is in lit's package). */
const LIT_NOTICE = '/*! lit, @lit/context | Copyright 2017 Google LLC | BSD-3-Clause */';

/** The shipped locales (src/i18n/locales.ts, the one table): read here for the files the script tag loads. */
async function readLocales() {
  const { outputFiles } = await build({
    entryPoints: [join(src, 'i18n', 'locales.ts')],
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'warning',
  });
  const locales = await import(
    `data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`
  );
  return locales.default;
}

// Every locale but English (which the script tag carries): its messages in pg-checkout.<code>.js beside it.
const besideLocales = Object.keys(await readLocales()).filter((code) => code !== 'en');
const localeFile = (code) => join(dist, `pg-checkout.${code}.js`);
/** A language's name in English (`af`: Afrikaans), for the inventory and the declarations. */
const languageName = (code) => new Intl.DisplayNames(['en'], { type: 'language' }).of(code);

/**
 * In the script-tag file, each beside locale's messages (`i18n/af.ts`) are replaced by their loader,
 * which imports pg-checkout.<code>.js beside the script the first time the locale is asked for;
 * English until it arrives, or if it cannot.
 */
const localesBesideScriptPlugin = {
  name: 'pg-locales-beside-script',
  setup(build) {
    const files = new Map(besideLocales.map((code) => [join(src, 'i18n', `${code}.js`), code]));
    build.onResolve({ filter: /\.js$/ }, (args) => {
      const code = files.get(join(args.resolveDir, args.path));
      return code === undefined ? undefined : { path: code, namespace: 'pg-locale-loader' };
    });
    build.onLoad({ filter: /.*/, namespace: 'pg-locale-loader' }, ({ path: code }) => ({
      contents:
        `import { importBesideScript } from './script-tag/beside-script.lazy.ts';\n` +
        `export const ${code} = () => importBesideScript('pg-checkout.${code}.js').then((m) => m.${code});\n`,
      resolveDir: src,
      loader: 'ts',
    }));
  },
};

const threeDSFile = join(dist, 'pg-checkout.3ds.js');

/**
 * In the script-tag file, the 3-D Secure entries, the drop-in's `flow-ready.ts` and the outcome
 * sentence's `failure-message.ts` (its code table) are replaced by their loader
 * (src/script-tag/three-ds.lazy.ts), which imports pg-checkout.3ds.js beside it.
 */
const threeDSBesideScriptPlugin = {
  name: 'pg-3ds-beside-script',
  setup(build) {
    build.onResolve(
      { filter: /(^|\/)(3ds-v[12](\.component)?|flow-ready|failure-message)\.js$/ },
      () => ({
        path: join(src, 'script-tag', 'three-ds.lazy.ts'),
      }),
    );
  },
};

/**
 * What pg-checkout.3ds.js takes from the script-tag file (`shared` in three-ds.lazy.ts, the same names)
 * instead of bundling a second copy: lit, the context, the API client, the LocalizeController (with the
 * messages and the amounts). Small pure helpers (the events, `defineElement`, the sessionStorage entry)
 * are copied instead: a name listed here costs the script-tag file more than the copy costs
 * pg-checkout.3ds.js.
 */
const SHARED = {
  lit: ['css', 'html', 'LitElement', 'nothing'],
  // A second lit-html (which keyed would bring) would also ask Trusted Types for a second 'lit-html' policy.
  'lit/directives/keyed.js': ['keyed'],
  '@lit/context': ['ContextConsumer'],
  'api/client': ['CheckoutApi'],
  'shared/context': ['checkoutContext'],
  'shared/localize-controller': ['LocalizeController'],
  'shared/connection': ['ConnectionController'],
  'shared/look': ['lookControllers'],
  'shared/theme': ['themeStyles'],
};

const sharedPlugin = {
  name: 'pg-3ds-shared',
  setup(build) {
    build.onResolve(
      { filter: /^(lit|@lit\/context|lit\/directives\/keyed\.js)$|^\..*\.js$/ },
      (args) => {
        const key = args.path.startsWith('.')
          ? relative(src, join(args.resolveDir, args.path))
              .replace(/\.js$/, '')
              .replaceAll('\\', '/')
          : args.path;
        return SHARED[key] ? { path: key, namespace: 'pg-shared' } : undefined;
      },
    );
    build.onLoad({ filter: /.*/, namespace: 'pg-shared' }, (args) => ({
      // One flat object of exports (their names do not collide): no module path is spelled in either file.
      contents: `export const { ${SHARED[args.path].join(', ')} } = globalThis[Symbol.for('pg-checkout.3ds')];`,
      loader: 'js',
    }));
  },
};

async function buildIife() {
  const options = {
    entryPoints: [join(src, 'index.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'PgCheckout',
    minify: true,
    target: 'es2021',
    tsconfig,
    conditions,
    legalComments: 'none',
    mangleProps: PRIVATE_NAMES,
    write: false,
    logLevel: 'warning',
  };
  // The short names are chosen once, over everything (3-D Secure included), so none of them is a name
  // lit or another property already has, in either file; both files then take them from this cache.
  const { mangleCache } = await build({
    ...options,
    mangleCache: {},
    define: { PG_INTEGRITY: '{}' },
    plugins: [localesBesideScriptPlugin, minifyTemplatesPlugin()],
  });
  // Each beside locale (Afrikaans: 1 KB gzip) goes in a file of its own that only a page in it loads.
  for (const code of besideLocales)
    await build({
      entryPoints: [join(src, 'i18n', `${code}.ts`)],
      bundle: true,
      format: 'esm',
      minify: true,
      target: 'es2021',
      tsconfig,
      conditions,
      outfile: localeFile(code),
      logLevel: 'warning',
    });
  // 3-D Secure and the drop-in's steps from Pay to the outcome (checkout/payment-flow.steps.ts) go in a file of their own,
  // fetched on the shopper's first touch or 2 s after load, and before a payment (src/script-tag/three-ds.lazy.ts). Its private names are shortened as in the script-tag file.
  const threeDS = await build({
    stdin: {
      contents:
        "export { Pg3dsV2 } from './three-ds/3ds-v2.js';\n" +
        "export { Pg3dsV1 } from './three-ds/3ds-v1.js';\n" +
        "export * as checkoutFlow from './checkout/payment-flow.steps.js';",
      resolveDir: src,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    minify: true,
    target: 'es2021',
    tsconfig,
    conditions,
    legalComments: 'none',
    mangleProps: PRIVATE_NAMES,
    mangleCache,
    write: false,
    plugins: [sharedPlugin, minifyTemplatesPlugin()],
    logLevel: 'warning',
  });
  const threeDSCode = (
    await minify(threeDS.outputFiles[0].text, { ecma: 2020, module: true, compress: { passes: 3 } })
  ).code;
  writeFileSync(threeDSFile, threeDSCode);
  // The files the script tag loads are built first: it carries their integrity and checks them (beside-script.lazy.ts).
  const loaded = Object.fromEntries(
    [threeDSFile, ...besideLocales.map(localeFile)].map((path) => [
      relative(dist, path),
      sri(readFileSync(path)),
    ]),
  );
  const result = await build({
    ...options,
    mangleCache,
    define: { PG_INTEGRITY: JSON.stringify(loaded) },
    // The templates' indentation and comments are bytes every shop pays for; lit needs none of them.
    plugins: [localesBesideScriptPlugin, threeDSBesideScriptPlugin, minifyTemplatesPlugin()],
  });
  const named = (cache) => Object.keys(cache).length;
  if (
    named(result.mangleCache) !== named(mangleCache) ||
    named(threeDS.mangleCache) !== named(mangleCache)
  )
    throw new Error('a private name was shortened outside the shared mangle cache');
  // terser's repeated compress passes find what esbuild's one pass leaves (about 0.4 KB gzip); only
  // its safe transforms, so the code does what esbuild's output did. `pure_getters`: reading a property
  // has no side effect, which lets it drop the part of lit's internals (`_$LH`) that nothing here uses,
  // once read by lit's directive helpers (84 B gzip). True of this code and of lit: no getter with an
  // effect, no statement that only reads a property to force a layout (`el.offsetHeight;`); such a
  // statement would be dropped from this file, so write it as a call or an assignment. `ascii_only`:
  // the few characters past ASCII (the English table's "…", the amounts' "€", "£" and no-break spaces,
  // the name check's "’") written as \u escapes: the same strings once parsed (lit reads a template's
  // cooked strings, not its raw text), 20 B gzip less, and a page that serves the file without a UTF-8
  // charset reads them right too.
  const minified = await minify(result.outputFiles[0].text, {
    ecma: 2020,
    compress: { passes: 3, pure_getters: true },
    format: { preamble: LIT_NOTICE, ascii_only: true },
  });
  writeFileSync(iifeFile, minified.code);
  // The page's reporter, for a script tag before pg-checkout.js (src/script-tag/reporter-tag.lazy.ts).
  await build({
    entryPoints: [join(src, 'script-tag', 'reporter-tag.lazy.ts')],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2021',
    tsconfig,
    conditions,
    legalComments: 'none',
    outfile: reporterFile,
    logLevel: 'warning',
  });
  writeManifest();
  const bytes = Buffer.byteLength(minified.code);
  const gzipped = gzipSync(minified.code, { level: 9 }).length;
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `dist/pg-checkout.js: ${kb(bytes)} minified, ${kb(gzipped)} gzip ` +
      `(goal ${kb(GOAL)}: ${gzipped <= GOAL ? 'met' : 'missed'}; budget ${kb(BUDGET)})`,
  );
  if (gzipped > BUDGET) {
    console.error('pg-checkout.js is over its size budget');
    process.exitCode = 1;
  }
}

const reporterFile = join(dist, 'pg-checkout.reporter.js');

/** An SRI string: what an `integrity` attribute takes. */
const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/** Why each script-tag file is there and what loads it: the inventory PCI DSS 6.4.3 asks for. */
const SCRIPTS = {
  'pg-checkout.js': {
    purpose:
      'The drop-in <pg-checkout> and <pg-card-form>: card entry, payment, outcome (lit inside).',
    loadedBy:
      "The payment page's <script src> tag, with this integrity and crossorigin; it checks the files below.",
  },
  'pg-checkout.3ds.js': {
    purpose:
      "3-D Secure (<pg-3ds-v2>, <pg-3ds-v1>) and the drop-in's steps from Pay to the outcome.",
    loadedBy:
      'pg-checkout.js, from its own folder, on first touch, 2 s after load or before a payment: a <link rel=modulepreload> with this integrity, then import().',
  },
  ...Object.fromEntries(
    besideLocales.map((code) => [
      `pg-checkout.${code}.js`,
      {
        purpose: `The ${languageName(code)} messages.`,
        loadedBy: `pg-checkout.js, from its own folder, when a page asks for locale="${code}": a <link rel=modulepreload> with this integrity, then import().`,
      },
    ]),
  ),
  'pg-checkout.reporter.js': {
    purpose:
      'Reports a script or module that failed to load (an integrity refusal among them) to the middleware (POST {endpoint}/reports).',
    loadedBy:
      "The payment page's <script src data-endpoint> tag, before pg-checkout.js, with this integrity and crossorigin (optional).",
  },
};

/**
 * dist/integrity.json (exported as @pg-checkout/elements/integrity.json): every script-tag file with its
 * size, SHA-384 (SRI) and why it is there. A pg-checkout.*.js without a row in SCRIPTS fails the build.
 */
function writeManifest() {
  const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const files = readdirSync(dist)
    .filter((file) => /^pg-checkout(\.[\w-]+)?\.js$/.test(file))
    .sort((a, b) => (a === 'pg-checkout.js' ? -1 : b === 'pg-checkout.js' ? 1 : a.localeCompare(b)))
    .map((file) => {
      const about = SCRIPTS[file];
      if (!about) throw new Error(`dist/${file} has no purpose in build.mjs's SCRIPTS`);
      const bytes = readFileSync(join(dist, file));
      return { file, size: bytes.length, integrity: sri(bytes), ...about };
    });
  const manifest = { package: name, version, algorithm: 'sha384', files };
  writeFileSync(join(dist, 'integrity.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`dist/integrity.json: ${files.map((f) => f.file).join(', ')}`);
}

if (!sizeOnly) {
  rmSync(dist, { recursive: true, force: true });
  const modules = await build({
    entryPoints: sources(src),
    outdir: dist,
    outbase: src,
    format: 'esm',
    target: 'es2022',
    tsconfig,
    logLevel: 'warning',
    write: false,
  });
  for (const file of modules.outputFiles) {
    let text = file.text;
    for (const name of COMMONJS) {
      const vendored = relative(dirname(file.path), join(dist, 'vendor', `${name}.js`));
      text = text.replaceAll(
        `from "${name}"`,
        `from "${vendored.startsWith('.') ? '' : './'}${vendored}"`,
      );
    }
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, text);
  }
  for (const name of COMMONJS) await vendor(name);
  console.log(`dist/: ${sources(src).length} ESM modules, ${COMMONJS.join(', ')} vendored as ESM`);
  if (!noTypes) {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
    writeScriptTagTypes();
    console.log('dist/: declarations');
    execFileSync(
      'npx',
      [
        'cem',
        'analyze', // custom-elements-manifest.config.mjs: globs, and module paths into dist/
      ],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    console.log(
      `${relative(process.cwd(), join(root, 'custom-elements.json')) || 'custom-elements.json'}: written`,
    );
    const jsx = writeJsxTypes(root);
    console.log(`dist/jsx/: ${jsx.files.join(', ')} typings for ${jsx.elements.join(', ')}`);
  }
}
/** Declarations of the script-tag files, so that an import of them (to serve or bundle them) is typed too. */
function writeScriptTagTypes() {
  const types = {
    'pg-checkout.d.ts':
      "// The script-tag file: loading it defines every element and sets window.PgCheckout; it exports nothing.\nimport './global.js';\nexport {};\n",
    ...Object.fromEntries(
      besideLocales.map((code) => [
        `pg-checkout.${code}.d.ts`,
        `// The ${languageName(code)} messages, loaded by the script-tag file from beside itself.\nexport { ${code} } from './i18n/${code}.js';\n`,
      ]),
    ),
    'pg-checkout.reporter.d.ts':
      "// The page's reporter for a script tag (data-endpoint): it reports scripts that fail to load; it exports nothing.\nexport {};\n",
    'pg-checkout.3ds.d.ts':
      "// The 3-D Secure elements, loaded by the script-tag file from beside itself.\nexport { Pg3dsV1 } from './three-ds/3ds-v1.component.js';\nexport { Pg3dsV2 } from './three-ds/3ds-v2.component.js';\n",
  };
  for (const [name, text] of Object.entries(types)) writeFileSync(join(dist, name), text);
}

await buildIife();
