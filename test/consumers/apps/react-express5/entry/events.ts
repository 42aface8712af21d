// The README's own import: one element's entry, not the package root. Its events' detail must be typed
// (an untyped event is a plain Event, and `e.detail` does not compile).
import '@pg-checkout/elements/checkout.js';

const el = document.createElement('pg-checkout');
el.addEventListener('pg-approved', (e) => console.log(e.detail.reference));
el.addEventListener('pg-declined', (e) => console.log(e.detail.originalErrorCode));
el.addEventListener('pg-threeds-start', (e) => console.log(e.detail.step));
