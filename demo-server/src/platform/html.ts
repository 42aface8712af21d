/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** Cents to a display amount, as the shop's browser pages write it too: 14900 ZAR -> "R 149,00". */
export { money as formatAmount } from '../../web/src/money.js';

/** The shell shared by the server-rendered pages (back office, script-tag page, test cards). */
export function page(opts: { title: string; body: string; head?: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.title)} · pg-checkout demo</title>
<link rel="stylesheet" href="/shop.css">
${opts.head ?? ''}
</head>
<body>
<header class="shop-header">
  <a class="brand" href="/">Karoo Roasters</a>
  <nav aria-label="Demo pages"><a href="/">Checkout</a><a href="/script-tag.html">Script tag</a><a href="/esm.html">ESM import</a><a href="/admin">Back office</a></nav>
</header>
<main class="shop single">
${opts.body}
</main>
</body>
</html>`;
}

/** Groups a test card number for reading, as printed on cards: 4-4-4-4, amex 4-6-5. */
export function spaced(number: string): string {
  const groups =
    number.length === 15 ? [4, 6, 5] : number.length === 14 ? [4, 6, 4] : [4, 4, 4, 4, 3];
  const out: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= number.length) break;
    out.push(number.slice(at, at + size));
    at += size;
  }
  return out.join(' ');
}
