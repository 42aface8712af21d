import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe-core (WCAG 2 A/AA rules) over the page, shadow roots included, and fails on any
 * violation. The page's context must bypass CSP for the injected script (bypassCSP: true).
 */
export async function assertAccessible(page: Page, state: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ content: axeSource });
  const violations = (await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: unknown[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      iframes: false,
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations;
  })) as AxeViolation[];
  const summary = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`,
  );
  assert.deepEqual(summary, [], `axe violations in state "${state}"`);
}
