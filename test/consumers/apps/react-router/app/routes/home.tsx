// Server-rendered with the page; the element upgrades once its module loads in the browser.
import { useEffect } from 'react';
import type {} from '@pg-checkout/elements/jsx/react';

export default function Home() {
  useEffect(() => {
    void import('@pg-checkout/elements');
  }, []);
  return (
    <main>
      <pg-checkout endpoint="/api/checkout" methods="card"></pg-checkout>
    </main>
  );
}
