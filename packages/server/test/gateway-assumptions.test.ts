/**
 * What the core assumes of the gateway is one list (issue 38): the same table in docs/contracts.md
 * and the server's README, each row citing the spec, and every passage it quotes found in the spec.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

const root = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
// The spec lives beside the repository (shared/), as it does in CI.
const SPEC = new URL('../shared/gateway-interface.md', root);

/** The rows of the table that follows `heading`, as arrays of cells. */
function tableAfter(text: string, heading: string): string[][] {
  const at = text.indexOf(heading);
  assert.ok(at >= 0, `no "${heading}"`);
  const lines = text.slice(at).split('\n');
  const start = lines.findIndex((l) => l.startsWith('| # |'));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split(' | ').map((cell) => cell.replace(/^\| ?| ?\|$/g, '').trim()));
  }
  return rows;
}

const contracts = tableAfter(read('docs/contracts.md'), '#### Assumed of the gateway');
const readme = tableAfter(read('packages/server/README.md'), '## Assumed of the gateway');

describe('what the core assumes of the gateway', () => {
  it('is one list: the contracts and the server README hold the same rows', () => {
    assert.ok(contracts.length >= 10, `${contracts.length} rows`);
    assert.deepEqual(readme, contracts);
  });

  it('each row names what is assumed and the spec line it rests on, or says it was chosen', () => {
    for (const [n, part, assumed, line] of contracts) {
      assert.ok(part && assumed && line, `row ${n} has an empty cell`);
      assert.ok(
        /"[^"]+"|not shown|\*chosen\*/.test(`${assumed} ${line}`),
        `row ${n} cites nothing`,
      );
    }
  });

  it(
    'every passage a row quotes is in the spec, word for word',
    { skip: !existsSync(SPEC) && 'the spec is not beside this checkout' },
    () => {
      const spec = readFileSync(SPEC, 'utf8').replaceAll('`', '');
      for (const [n, , , line] of contracts)
        for (const [, quoted] of line!.matchAll(/"([^"]+)"/g))
          for (const part of quoted!.replaceAll('`', '').split(' ... '))
            assert.ok(spec.includes(part), `row ${n} quotes what the spec does not say: "${part}"`);
    },
  );
});
