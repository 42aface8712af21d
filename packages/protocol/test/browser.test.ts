import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as browser from '../src/browser/index.js';

const dir = new URL('../src/browser/', import.meta.url);

test('the Browser API module is types only: nothing to bundle, no zod', () => {
  assert.deepEqual(Object.keys(browser), []);
  for (const file of readdirSync(dir)) {
    const text = readFileSync(new URL(file, dir), 'utf8');
    // Every import and re-export, over as many lines as it takes.
    for (const [statement] of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom '[^']+';/gm))
      assert.match(statement, /^(import|export) type\b/, `${file}: ${statement}`);
    assert.doesNotMatch(text, /['"]zod['"]/, file);
  }
});
