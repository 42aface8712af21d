/**
 * The docs are the code: every `ts` block of docs/*.md is either the shipped types themselves
 * (`<!-- doc-types: <module> -->`, checked against the module's exports, see doc-types.ts) or a sketch
 * that says so and why (`<!-- doc-code: sketch (why) -->`). A drifted block fails; so does one that
 * says nothing.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { blocksOfText, checkDocBlocks, docBlocks } from './doc-types.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const docs = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
const blocks = docs.flatMap((path) => docBlocks(root, path));

/** The store interface as docs/contracts.md gave it before the lock token, `ifHeld` and `reserve`. */
const DRIFTED_STORE = `<!-- doc-types: @pg-checkout/server -->

\`\`\`ts
interface CheckoutStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  increment(key: string, ttlMs: number): Promise<number>;
  lockAndGet(lockKey: string, lockTtlMs: number, key: string):
    Promise<{ locked: true; value: string | undefined } | { locked: false }>;
  writeAll(ops: ({ key: string; value: string; ttlMs: number } | { key: string; delete: true })[]): Promise<void>;
}
\`\`\`
`;

const TYPES = '<!-- doc-types: @pg-checkout/server -->\n\n';
const SKETCH = '<!-- doc-code: sketch (a call, not TypeScript) -->\n\n';
const fence = (code: string) => `\`\`\`ts\n${code}\n\`\`\`\n`;

/** Small documents of one block each, by name: drifts, and one that holds. */
const SAMPLES = {
  'drifted-store.md': DRIFTED_STORE,
  'holds.md':
    TYPES +
    fence(
      'interface PaymentPageHeaders {\n  nonce: string;\n  headers: Record<string, string>;\n}\n' +
        'declare function paymentPageHeaders(options: PaymentPageHeaderOptions): PaymentPageHeaders;',
    ),
  'missing-property.md': TYPES + fence('interface PaymentPageHeaders {\n  nonce: string;\n}'),
  // Assignable both ways to the shipped options (every field optional but one): identity says no.
  'missing-optional.md':
    TYPES + fence('interface PaymentPageHeaderOptions {\n  gatewayOrigin: string;\n}'),
  'dropped-parameter.md':
    TYPES + fence('declare function paymentPageHeaders(): PaymentPageHeaders;'),
  'member-list.md': TYPES + fence('release(key: string): Promise<void>;'),
  'unmarked.md': fence('interface PageIntegrityReport {}'),
  'sketch-import.md':
    SKETCH +
    fence(
      "import { createCheckoutHandler, createCheckoutHandlr } from '@pg-checkout/server';\n" +
        'createCheckoutHandler({ ...options, clientAddress? });',
    ),
};

const samples = Object.entries(SAMPLES).flatMap(([name, text]) => blocksOfText(name, text));

let found: Map<string, string[]>;
before(() => {
  found = checkDocBlocks([...blocks, ...samples], join(root, 'test', 'docs'));
});

describe('docs/*.md: each ts block is the shipped types, or a sketch that says why', () => {
  it('finds the blocks, the store interface among the checked ones', () => {
    const contracts = blocks.filter((b) => b.where.startsWith('docs/contracts.md:'));
    assert.ok(contracts.length >= 10, `only ${contracts.length} blocks in docs/contracts.md`);
    const store = blocks.find((b) => /^interface CheckoutStore \{/m.test(b.code));
    assert.ok(store, 'docs/contracts.md declares interface CheckoutStore');
    assert.deepEqual(store.kind, { types: '@pg-checkout/server' });
  });

  for (const block of blocks)
    it(`${block.where} (${'types' in block.kind ? `the types of ${block.kind.types}` : 'sketch' in block.kind ? 'a sketch' : 'unmarked'})`, (t) => {
      if ('sketch' in block.kind) t.diagnostic(`sketch: ${block.kind.sketch}`);
      assert.deepEqual(found.get(block.where), [], `${block.where}:\n${block.code}`);
    });
});

describe('the check fails a block that drifted', () => {
  const of = (name: keyof typeof SAMPLES) => {
    const block = samples.find((b) => b.where.startsWith(`${name}:`));
    assert.ok(block, name);
    return found.get(block.where)!.join('\n');
  };

  it('the store interface the contract gave before (no lock token, no ifHeld, no reserve)', () => {
    const text = of('drifted-store.md');
    assert.match(text, /`CheckoutStore` is not the shipped one of @pg-checkout\/server/);
    assert.match(text, /reserve/);
  });

  it('a block that is the shipped types holds (the check can pass)', () => {
    assert.equal(of('holds.md'), '');
  });

  it('a missing property, a missing optional property, a dropped parameter', () => {
    assert.match(of('missing-property.md'), /`PaymentPageHeaders` is not the shipped one/);
    assert.match(of('missing-optional.md'), /`PaymentPageHeaderOptions` is not the shipped one/);
    assert.match(of('dropped-parameter.md'), /`paymentPageHeaders` is not the shipped one/);
  });

  it('a member list that is not a declaration, and a block with no marker', () => {
    assert.match(of('member-list.md'), /not an interface, a type or a `declare function`/);
    assert.match(of('unmarked.md'), /says above its fence what it is/);
  });

  it('a sketch importing a name the module does not export', () => {
    assert.match(of('sketch-import.md'), /sketch-import\.md:4: TS2\d+ .*createCheckoutHandlr/);
    // The name that is exported raises nothing: one problem, the misspelt one.
    assert.equal(of('sketch-import.md').split('\n').length, 1);
  });
});
