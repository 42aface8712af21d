/**
 * scripts/check-floors.mjs on a tiny workspace copied to a temporary folder: it passes on clean
 * floors and fails, one line per fault, on an import that points up, a cycle, a file in no floor
 * or in two; a package without `floors` is not checked.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../check-floors.mjs', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/floors', import.meta.url));
const made: string[] = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A fresh copy of the fixture workspace, changed by `edits` (path under it -> new text). */
function workspace(edits: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'floors-'));
  made.push(dir);
  cpSync(fixture, dir, { recursive: true });
  for (const [path, text] of Object.entries(edits)) writeFileSync(join(dir, path), text);
  return dir;
}

function check(dir: string) {
  const run = spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
  const faults = run.stderr.split('\n').filter((line) => line.startsWith('packages/'));
  return { code: run.status, faults, stdout: run.stdout };
}

const tiny = 'packages/tiny';

describe('check-floors', () => {
  it('passes clean floors; tests and a package without floors (a cycle and all) are not checked', () => {
    const result = check(workspace());
    assert.deepEqual(result.faults, []);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /1 package\(s\) hold their floors/);
  });

  it('fails an import that points to a higher floor, naming the file, the import and both floors', () => {
    const result = check(
      workspace({
        [`${tiny}/src/base.ts`]:
          "import { extra } from './extra.js';\n\nexport const base = extra.length;\n",
      }),
    );
    assert.equal(result.code, 1);
    assert.deepEqual(result.faults, [
      `${tiny}/src/base.ts: imports ./extra.js upward, from floor 1 [base.ts] to floor 3 [index.ts, extra.ts]`,
    ]);
  });

  it('sees a dynamic import and an export-from too', () => {
    const result = check(
      workspace({
        [`${tiny}/src/parts/b.ts`]:
          "import { a } from './a.js';\n\nexport const b = a + 1;\nexport const later = () => import('../extra.js');\nexport { extra } from '../extra.js';\n",
      }),
    );
    assert.equal(result.code, 1);
    assert.equal(result.faults.length, 2, result.faults.join('\n'));
    for (const fault of result.faults)
      assert.match(
        fault,
        /^packages\/tiny\/src\/parts\/b\.ts: imports \.\.\/extra\.js upward, from floor 2 \[parts\] to floor 3/,
      );
  });

  it('fails a cycle within one floor, naming its files', () => {
    const result = check(
      workspace({
        [`${tiny}/src/parts/a.ts`]:
          "import { base } from '../base.js';\nimport { b } from './b.js';\n\nexport const a = base + 1;\nexport const twice = () => b * 2;\n",
      }),
    );
    assert.equal(result.code, 1);
    assert.deepEqual(result.faults, [
      `${tiny}/src/parts/a.ts: import cycle parts/a.ts -> parts/b.ts -> parts/a.ts`,
    ]);
  });

  it('fails a file in no floor and a file in two', () => {
    const dir = workspace({ [`${tiny}/src/stray.ts`]: 'export const stray = 1;\n' });
    const manifest = join(dir, tiny, 'package.json');
    const json = JSON.parse(readFileSync(manifest, 'utf8')) as { floors: string[][] };
    json.floors[0]!.push('parts/a.ts');
    writeFileSync(manifest, JSON.stringify(json));
    const result = check(dir);
    assert.equal(result.code, 1);
    assert.deepEqual(result.faults, [
      `${tiny}/src/parts/a.ts: in 2 floors (floor 1 [base.ts, parts/a.ts], floor 2 [parts])`,
      `${tiny}/src/stray.ts: in no floor`,
    ]);
  });

  it('fails a folder with more files than maxFilesPerFolder, when the package sets one', () => {
    const dir = workspace();
    const manifest = join(dir, tiny, 'package.json');
    const json = JSON.parse(readFileSync(manifest, 'utf8')) as { maxFilesPerFolder?: number };
    json.maxFilesPerFolder = 3;
    writeFileSync(manifest, JSON.stringify(json));
    assert.deepEqual(check(dir).faults, []);
    json.maxFilesPerFolder = 2;
    writeFileSync(manifest, JSON.stringify(json));
    const result = check(dir);
    assert.equal(result.code, 1);
    assert.deepEqual(result.faults, [
      `${tiny}/src/: holds 3 files, more than 2`,
      `${tiny}/src/parts/: holds 3 files, more than 2`,
    ]);
  });
});
