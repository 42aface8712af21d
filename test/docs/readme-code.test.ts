/**
 * Every TypeScript and JavaScript block of the READMEs (the root one and packages/*\/README.md) compiles
 * under `strict`, `exactOptionalPropertyTypes` and `skipLibCheck: false`, as an ES module, as CommonJS and
 * for a bundler, as a merchant would paste it: each block on its own (its own imports; nothing from an
 * earlier block), against the packages' types, with the merchant's own names (carts, orders, app, …)
 * from merchant.d.ts. The `<script>` of a Vue or Svelte block is compiled too, and the expressions of its
 * template must at least parse.
 *
 * A block is left out only with a reason the reader sees, on a line before its fence:
 * `<!-- readme-code: skip (why) -->` (blank lines between are fine); the test prints the reason.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../..', import.meta.url));
const elements = join(root, 'packages', 'elements');
/** Virtual files live here, so that packages resolve from the test workspace as a merchant's would. */
const virtualDir = join(root, 'test', 'docs', 'blocks');

interface Block {
  /** `README.md:29` */
  where: string;
  lang: string;
  code: string;
  skip?: string | undefined;
  /** The virtual file compiled for it (`.ts` or `.tsx`). */
  file: string;
  /** Vue and Svelte template expressions, each checked for syntax. */
  expressions: string[];
}

const readmes = [
  'README.md',
  ...readdirSync(join(root, 'packages'))
    .map((name) => join('packages', name, 'README.md'))
    .filter((path) => {
      try {
        readFileSync(join(root, path));
        return true;
      } catch {
        return false;
      }
    }),
];

const LANGS = new Set([
  'ts',
  'tsx',
  'js',
  'jsx',
  'mjs',
  'typescript',
  'javascript',
  'vue',
  'svelte',
]);

function blocksOf(path: string): Block[] {
  const lines = readFileSync(join(root, path), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(\w+)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    let end = i + 1;
    while (end < lines.length && !lines[end]!.startsWith('```')) end += 1;
    i = end;
    const lang = open[1]!;
    if (!LANGS.has(lang)) continue;
    const body = lines.slice(start + 1, end).join('\n');
    let above = start - 1;
    while (above > 0 && lines[above]!.trim() === '') above -= 1;
    const marker = /^<!-- readme-code: skip(?: \((.*)\))? -->$/.exec(lines[above]?.trim() ?? '');
    if (marker && !marker[1]?.trim())
      throw new Error(`${path}:${start + 1}: a skipped block needs a reason: skip (why)`);
    const where = `${path}:${start + 1}`;
    const name = `${path.replace(/[/.]/g, '_')}_${start + 1}`;
    const jsx = lang === 'tsx' || lang === 'jsx';
    let code = body;
    let expressions: string[] = [];
    if (lang === 'vue' || lang === 'svelte') {
      code = /<script[^>]*>([\s\S]*?)<\/script>/.exec(body)?.[1] ?? '';
      const markup = body.replace(/<script[^>]*>[\s\S]*?<\/script>/g, '');
      expressions =
        lang === 'vue'
          ? [...markup.matchAll(/\s(?:@|:|v-[\w-]+=?)[\w.:-]*="([^"]*)"/g)].map((m) => m[1]!)
          : [...markup.matchAll(/=\{([^}]*(?:\{[^}]*\}[^}]*)*)\}/g)].map((m) => m[1]!);
    }
    blocks.push({
      where,
      lang,
      code,
      skip: marker?.[1],
      file: join(virtualDir, `${name}.${jsx ? 'tsx' : 'ts'}`),
      expressions,
    });
  }
  return blocks;
}

const blocks = readmes.flatMap(blocksOf);

/**
 * The strictest settings a merchant may have: `exactOptionalPropertyTypes` and every declaration file
 * checked, ours as published (`dist/`, not the workspace's sources). Each block is compiled three ways: as an ES module and as CommonJS under `nodenext`
 * resolution (a `package.json` with and without `"type": "module"`), and for a bundler.
 */
const strictest: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  skipLibCheck: false,
  esModuleInterop: true,
  allowJs: true,
  checkJs: true,
};

const VARIANTS = {
  'ESM nodenext': {
    dir: 'blocks-esm',
    type: 'module',
    options: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
  },
  'CommonJS nodenext': {
    dir: 'blocks-cjs',
    type: 'commonjs',
    options: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
  },
  bundler: {
    dir: 'blocks-bundler',
    type: 'module',
    options: { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
  },
} as const;
type Variant = keyof typeof VARIANTS;

/** Diagnostics per variant and block (`where`), from one program per variant over all blocks. */
const diagnostics = new Map<Variant, Map<string, string[]>>();

function compile(variant: Variant): Map<string, string[]> {
  const { dir, type, options: resolution } = VARIANTS[variant];
  const options = { ...strictest, ...resolution };
  const base = join(root, 'test', 'docs', dir);
  const compiled = blocks.filter((b) => !b.skip);
  const fileOf = (b: Block) => join(base, relative(virtualDir, b.file));
  // Each block is a module of its own: names from one block never leak into the next.
  const sources = new Map(compiled.map((b) => [fileOf(b), `${b.code}\nexport {};\n`]));
  // The blocks' own package.json says which module format `nodenext` gives them.
  sources.set(join(base, 'package.json'), JSON.stringify({ type }));
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => sources.has(file) || fileExists.call(host, file);
  host.readFile = (file) => sources.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, onError, create) => {
    const text = sources.get(file);
    return text !== undefined
      ? ts.createSourceFile(file, text, language, true)
      : getSourceFile.call(host, file, language, onError, create);
  };
  const program = ts.createProgram(
    [...compiled.map(fileOf), join(root, 'test', 'docs', 'merchant.d.ts')],
    options,
    host,
  );
  const found = new Map(compiled.map((b) => [b.where, [] as string[]]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file?.fileName ?? '';
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const line =
      d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
    const block = compiled.find((b) => fileOf(b) === file);
    if (block) {
      const [readme, first] = block.where.split(':');
      found.get(block.where)!.push(`${readme}:${Number(first) + 1 + line}: TS${d.code} ${text}`);
    } else {
      // An error outside the blocks (merchant.d.ts, a package's types) fails every block's reading.
      const at =
        d.file && d.start !== undefined
          ? `:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}`
          : '';
      for (const list of found.values())
        list.push(`${relative(root, file) || '(options)'}${at}: TS${d.code} ${text}`);
    }
  }
  return found;
}

before(() => {
  // The blocks read the packages' declarations as a merchant's install has them: build them, and
  // the elements' JSX typings (`@pg-checkout/elements/jsx/*`), generated from custom-elements.json.
  for (const name of ['protocol', 'node', 'sandbox', 'server', 'express', 'elements'])
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], {
      cwd: join(root, 'packages', name),
      stdio: 'inherit',
    });
  execFileSync('npx', ['cem', 'analyze'], {
    cwd: elements,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "import { writeJsxTypes } from './scripts/jsx-types.mjs'; writeJsxTypes(process.cwd());",
    ],
    { cwd: elements, stdio: 'inherit' },
  );
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], {
    cwd: join(root, 'packages', 'react'),
    stdio: 'inherit',
  });
  for (const variant of Object.keys(VARIANTS) as Variant[])
    diagnostics.set(variant, compile(variant));
});

describe('README code compiles under the strictest TypeScript, as ESM, CommonJS and for a bundler', () => {
  it('finds the blocks (every README with code has some)', () => {
    assert.ok(blocks.length >= 20, `only ${blocks.length} blocks found`);
    for (const readme of ['README.md', 'packages/express/README.md', 'packages/elements/README.md'])
      assert.ok(
        blocks.some((b) => b.where.startsWith(`${readme}:`)),
        readme,
      );
  });

  for (const block of blocks) {
    it(`${block.where} (${block.lang})`, (t) => {
      if (block.skip) {
        t.skip(block.skip);
        return;
      }
      for (const variant of Object.keys(VARIANTS) as Variant[])
        assert.deepEqual(
          diagnostics.get(variant)!.get(block.where),
          [],
          `${block.where} as ${variant}:\n${block.code}`,
        );
      for (const expression of block.expressions) {
        const parsed = ts.createSourceFile(
          'x.ts',
          `(${expression});`,
          ts.ScriptTarget.ES2022,
          true,
        );
        const problems = (parsed as unknown as { parseDiagnostics: ts.Diagnostic[] })
          .parseDiagnostics;
        assert.deepEqual(
          problems.map((p) => ts.flattenDiagnosticMessageText(p.messageText, ' ')),
          [],
          `template expression ${expression}`,
        );
      }
    });
  }
});
