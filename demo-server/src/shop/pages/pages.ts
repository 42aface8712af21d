import { testCards } from '@pg-checkout/sandbox';
import { escapeHtml, page, spaced } from '../../platform/html.js';
import { integrityOf } from './script-integrity.js';

/** A checkout page that loads the elements from one script tag, as a non-bundler site would. */
export function scriptTagPage(): string {
  return page({
    title: 'Script tag',
    // The scripts in the head, fetched beside the stylesheet; the order beside both, for the amount on Pay.
    // Each file with its published integrity. Both `defer`: nothing holds up the parser or the first
    // paint, and deferred scripts run in document order, so the reporter listens before pg-checkout.js
    // runs or is refused. `fetchpriority="high"`: Chromium would hold a deferred script back until the
    // head's other files arrived, a whole round trip on a slow network.
    head: `<script src="/elements/pg-checkout.reporter.js"${integrityOf('pg-checkout.reporter.js')} data-endpoint="/checkout" defer></script>
<script src="/elements/pg-checkout.js"${integrityOf('pg-checkout.js')} defer fetchpriority="high"></script>
<link rel="preload" href="/checkout/config" as="fetch" crossorigin>`,
    body: `<h1>Paying through the script-tag build</h1>
<p>This page loads <code>pg-checkout.js</code> with a plain <code>&lt;script&gt;</code> tag.</p>
<section class="pay"><pg-checkout class="skeleton" endpoint="/checkout" methods="card"></pg-checkout></section>`,
  });
}

/** The sandbox's test cards, for shoppers trying the demo. */
export function testCardsPage(): string {
  const rows = testCards
    .map(
      (card) =>
        `<tr><td><code>${escapeHtml(spaced(card.number))}</code></td><td>${escapeHtml(card.brand)}</td><td>${escapeHtml(card.behaviour)}</td></tr>`,
    )
    .join('\n');
  return page({
    title: 'Test cards',
    body: `<h1>Test cards</h1>
<p>Any future expiry date, any CVV of the right length (4 digits for amex), any name. The 3-D Secure
pages take the code <code>1234</code>.</p>
<table><thead><tr><th>Number</th><th>Brand</th><th>What happens</th></tr></thead><tbody>${rows}</tbody></table>`,
  });
}
