// An SPA would do exactly this: import the elements from npm and create them from code.
import '@pg-checkout/elements';

const checkout = document.createElement('pg-checkout');
checkout.setAttribute('endpoint', '/checkout');
checkout.setAttribute('methods', 'card');
document.getElementById('mount')?.append(checkout);
