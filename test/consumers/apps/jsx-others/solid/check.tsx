// Solid: attributes, `prop:` properties and `on:pg-…` listeners are typed; each @ts-expect-error must be needed.
import '@pg-checkout/elements/checkout.js';
import '@pg-checkout/elements/jsx/solid';

export function Checkout() {
  return (
    <>
      <pg-checkout
        endpoint="/checkout"
        appearance="dark"
        prop:methodTimeout={3000}
        on:pg-approved={(e) => console.log(e.detail.reference)}
        on:pg-threeds-start={(e) => console.log(e.detail.step)}
      />
      {/* @ts-expect-error appearance is 'light' | 'dark' | 'auto' */}
      <pg-checkout endpoint="/checkout" appearance="purple" />
      {/* @ts-expect-error busy is a boolean */}
      <pg-card-form busy="yes" />
    </>
  );
}
