import { money } from './money.js';

/** The demo's cart widget: the shopper picks a quantity, the server answers the price. */
export interface Cart {
  quantity: number;
  amount: number;
  currency: string;
}

export async function bindCart(): Promise<void> {
  const qty = document.querySelector<HTMLSelectElement>('#qty');
  const total = document.querySelector<HTMLOutputElement>('#total');
  if (!qty || !total) return;
  const show = (cart: Cart) => {
    qty.value = String(cart.quantity);
    total.value = money(cart.amount, cart.currency);
  };
  show((await (await fetch('/api/cart')).json()) as Cart);
  qty.addEventListener('change', async () => {
    const res = await fetch('/api/cart', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ quantity: Number(qty.value) }),
    });
    if (!res.ok) return;
    const cart = (await res.json()) as Cart & { status?: string };
    show(cart);
    // The drop-in read the order when it loaded: it reads it again, so Pay shows the new total.
    const checkout = document.querySelector('pg-checkout');
    await checkout?.refresh();
    // A changed cart of a paid order is a new order: the drop-in offers to pay that one.
    if (cart.status === 'open' && checkout?.status === 'approved') checkout.reset();
  });
  // Another tab changed the cart: the drop-in refused to pay the old total; the cart shows the new one too.
  document.addEventListener('pg-failed', async (event) => {
    if (event.detail.code !== 'amount_changed') return;
    show((await (await fetch('/api/cart')).json()) as Cart);
  });
}
