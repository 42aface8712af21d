/* global document */
// The browser's side: Lit's hydration support before Lit, then the drop-in; the page's own listeners.
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import '@pg-checkout/elements/checkout.js';

const dropIn = document.querySelector('pg-checkout');
const steps = [];
dropIn.addEventListener('pg-threeds-start', (e) => {
  steps.push(`${e.detail.version}:${e.detail.step}`);
  document.getElementById('steps').textContent = steps.join(' ');
});
dropIn.addEventListener('pg-approved', (e) => {
  document.getElementById('outcome').textContent = `approved ${e.detail.reference}`;
});
dropIn.addEventListener('pg-failed', (e) => {
  document.getElementById('outcome').textContent = `failed ${e.detail.code}`;
});
