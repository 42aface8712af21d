// An SPA would do exactly this: import the elements from npm and create them from code.
// (This page shares its bundled Lit with the checkout page, whose drop-in is server-rendered: Lit's
// hydration support comes first here too, or the shared Lit would be set up without it. It does nothing
// to elements created in the browser.)
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import '@pg-checkout/elements';

const checkout = document.createElement('pg-checkout');
checkout.setAttribute('endpoint', '/checkout');
checkout.setAttribute('methods', 'card');
document.getElementById('mount')?.append(checkout);
