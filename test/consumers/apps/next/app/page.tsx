'use client';
// Next.js App Router: the React components from a client page, built for production.
import { useState } from 'react';
import { PgCheckout } from '@pg-checkout/react';

export default function Page() {
  const [outcome, setOutcome] = useState('');
  return (
    <main>
      <PgCheckout
        endpoint="/api/checkout"
        methods="card"
        onApproved={(e) => setOutcome(`approved ${e.detail.reference}`)}
        onFailed={(e) => setOutcome(`failed ${e.detail.code}`)}
      />
      <output>{outcome}</output>
    </main>
  );
}
