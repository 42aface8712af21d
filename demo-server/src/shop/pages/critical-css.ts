/**
 * The checkout page's first paint after one round trip: the style its frame and form need comes inline
 * in the HTML, and the shop's full style sheet is asked for at the end of the body, where it blocks no
 * paint of what is above it (no script needed, so the nonce-based CSP stays as it is).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../platform/build.js';

const MARKER = /\/\*\s*critical-end\b[^*]*\*\//;
const STYLESHEET = /<link rel="stylesheet"[^>]*href="[^"]+\.css"[^>]*>/;

/** The rules of shop.css above its `critical-end` comment, without comments and spare spaces. */
export function criticalCss(source: string): string {
  const at = source.search(MARKER);
  if (at < 0) throw new Error('shop.css has no critical-end comment');
  return source
    .slice(0, at)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{}:;,>])\s*/g, '$1')
    .replace(/;}/g, '}')
    .trim();
}

let cached: string | undefined;
const shopCritical = () =>
  (cached ??= criticalCss(readFileSync(join(repoRoot, 'demo-server/web/src/shop.css'), 'utf8')));

/** `page` with its critical style inline in the head and its style sheet link moved to the end of the body. */
export function withCriticalCss(page: string, css: string = shopCritical()): string {
  const link = STYLESHEET.exec(page)?.[0];
  if (!link) return page;
  return page
    .replace(link, () => `<style>${css}</style>`)
    .replace('</body>', () => `${link}\n</body>`);
}
