// `npm install` on a fresh clone prints no warning: every dependency with an install script is named in
// the root package.json's `allowScripts` (npm 11.19 and later warn about each one that is not), and the
// README says why for each name.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('every dependency install script is decided in allowScripts, and the README says why', (t) => {
  let listed: { allowScripts: { name: string; changes: { key: string; change: string }[] }[] };
  try {
    listed = JSON.parse(
      execFileSync('npm', ['install-scripts', 'ls', '--json'], { cwd: root, encoding: 'utf8' }),
    ) as typeof listed;
  } catch (error) {
    const version = execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim();
    // An npm without the command has no allowScripts policy either: it neither warns nor blocks.
    if (/Unknown command/i.test(String((error as { stderr?: unknown }).stderr ?? error))) {
      t.skip(`npm ${version} has no install-script policy`);
      return;
    }
    throw error;
  }
  const pending = listed.allowScripts.flatMap((p) =>
    p.changes.filter((c) => c.change === 'pending').map((c) => c.key),
  );
  assert.deepEqual(pending, [], 'dependencies whose install scripts allowScripts does not name');

  const manifest = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as {
    allowScripts?: Record<string, boolean>;
  };
  const readme = readFileSync(`${root}/README.md`, 'utf8');
  const names = Object.keys(manifest.allowScripts ?? {});
  assert.ok(names.length > 0, 'package.json names the dependencies that have install scripts');
  for (const name of names)
    assert.ok(readme.includes(`\`${name.replace(/@[^@/]*$/, '')}\``), `README.md says why ${name}`);
});
