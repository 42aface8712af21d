// Lit's hydration support before anything that imports lit: the page comes with the drop-in rendered.
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import '@pg-checkout/elements';
import { bindCart } from './cart.js';

const checkout = document.querySelector('pg-checkout');
const locale = document.querySelector<HTMLSelectElement>('#locale');
const appearance = document.querySelector<HTMLSelectElement>('#appearance');

locale?.addEventListener('change', () => {
  checkout?.setAttribute('locale', locale.value);
  document.documentElement.lang = locale.value;
});
appearance?.addEventListener('change', () => {
  checkout?.setAttribute('appearance', appearance.value);
  document.documentElement.dataset.theme = appearance.value;
});

void bindCart();
