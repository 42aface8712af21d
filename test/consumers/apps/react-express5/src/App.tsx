// What a React developer writes with @pg-checkout/react, as with react-stripe-js.
import { useState } from 'react';
import { PgCheckout } from '@pg-checkout/react';

export function App() {
  const [outcome, setOutcome] = useState('');
  const [steps, setSteps] = useState<string[]>([]);
  return (
    <main>
      <h1>Pay</h1>
      <PgCheckout
        endpoint="/checkout"
        locale="en"
        methods="card"
        onThreedsStart={(e) => setSteps((s) => [...s, `${e.detail.version}:${e.detail.step}`])}
        onApproved={(e) => setOutcome(`approved ${e.detail.reference}`)}
        onDeclined={(e) => setOutcome(`declined ${e.detail.code}`)}
        onFailed={(e) => setOutcome(`failed ${e.detail.code}`)}
      />
      <output id="outcome">{outcome}</output>
      <output id="steps">{steps.join(' ')}</output>
    </main>
  );
}
