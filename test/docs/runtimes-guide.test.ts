// The Workers guide shows the Durable Object store the runtime test type-checks and pays through on
// workerd: the block in the guide is that file, character for character.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const root = new URL('../../', import.meta.url);
const MARKER = 'test/consumers/apps/runtimes/src/durable-object-store.ts';

test('docs/frameworks/workers-bun-deno.md shows the tested Durable Object store as it is', () => {
  const guide = readFileSync(new URL('docs/frameworks/workers-bun-deno.md', root), 'utf8');
  const at = guide.indexOf(`<!-- ${MARKER} -->\n\`\`\`ts\n`);
  assert.notEqual(at, -1, `the guide marks the block that is ${MARKER}`);
  const start = guide.indexOf('\n', guide.indexOf('```ts', at)) + 1;
  const block = guide.slice(start, guide.indexOf('```\n', start));
  assert.equal(block, readFileSync(new URL(MARKER, root), 'utf8'));
});
