// Type checks only (never rendered): the elements straight in React 19 JSX, and mistakes the
// typings must catch (each @ts-expect-error fails the build if the line it guards compiles).
import '@pg-checkout/elements/jsx/react';
import '@pg-checkout/elements/checkout.js';
import { PgCheckout, PgCardForm } from '@pg-checkout/react';

export function RawElement() {
  return (
    <pg-checkout
      endpoint="/checkout"
      locale="af"
      saved-cards
      method-timeout="3000"
      appearance="dark"
      onpg-approved={(e) => console.log(e.detail.reference, e.detail.message)}
      onpg-threeds-complete={(e) => console.log(e.detail.status)}
    />
  );
}

export function Mistakes() {
  return (
    <>
      {/* @ts-expect-error appearance is 'light' | 'dark' | 'auto' */}
      <pg-checkout endpoint="/checkout" appearance="purple" />
      {/* @ts-expect-error onAproved is not an event of PgCheckout */}
      <PgCheckout endpoint="/checkout" onAproved={() => {}} />
      {/* @ts-expect-error busy is a boolean */}
      <PgCardForm busy="yes" />
      <PgCheckout
        endpoint="/checkout"
        // @ts-expect-error pg-approved's detail has no amount
        onApproved={(e) => console.log(e.detail.amount)}
      />
    </>
  );
}
