// The hosted page, redirect and EFT return here. The outcome in the URL is the shopper's to edit, so
// the page words only what the shop server learnt from the gateway (GET /api/payment-result).
import { money } from './money.js';

/** A second charge of an order already paid, which the shop gives back. */
type SecondPayment = {
  reference: string;
  amount: number;
  currency: string;
  refund: 'refunded' | 'refunding';
};

type PaymentResult =
  | { state: 'paid'; amount: number; currency: string; second?: SecondPayment }
  | {
      state: 'changed';
      charged: { amount: number; currency: string };
      total: { amount: number; currency: string };
      message: string;
    }
  | { state: 'refunded' }
  | { state: 'not-charged'; status: 'CANCELLED' | 'FAILED' | 'REVERSED' }
  | { state: 'checking' }
  | { state: 'not-found' };

const title = document.getElementById('result-title')!;
const detail = document.getElementById('result-detail')!;
const POLL_MS = 2_000;
const MAX_CHECKS = 15;

function words(result: PaymentResult): [string, string] {
  switch (result.state) {
    case 'paid':
      if (result.second)
        return [
          'Already paid: your second payment goes back',
          `This order was already paid (${money(result.amount, result.currency)}). Your second payment of ${money(result.second.amount, result.second.currency)} (reference ${result.second.reference}) was not needed and ${result.second.refund === 'refunded' ? 'has been refunded' : 'is being refunded'}; you do not need to do anything.`,
        ];
      return [
        'Thank you!',
        `Your payment of ${money(result.amount, result.currency)} went through. A confirmation follows by e-mail.`,
      ];
    case 'changed':
      return [
        'Your order changed while you paid',
        `You were charged ${money(result.charged.amount, result.charged.currency)} for an order that now comes to ${money(result.total.amount, result.total.currency)}. The shop will refund it or collect the rest; nothing more was charged.`,
      ];
    case 'refunded':
      return ['Payment refunded', 'This payment went through and has since been refunded.'];
    case 'not-charged':
      return result.status === 'CANCELLED'
        ? ['Payment cancelled', 'You cancelled the payment. Nothing was charged.']
        : [
            'Payment failed',
            'The payment did not go through. Nothing was charged; please try again.',
          ];
    case 'not-found':
      return [
        'No payment found',
        'We found no payment for the cart in this browser. If you paid, a confirmation follows by e-mail.',
      ];
    case 'checking':
      return [
        'Checking your payment…',
        'We are confirming your payment with the bank. This page updates by itself.',
      ];
  }
}

function show([heading, text]: [string, string]): void {
  title.textContent = heading;
  detail.textContent = text;
}

async function ask(): Promise<PaymentResult> {
  try {
    const res = await fetch('/api/payment-result', { headers: { accept: 'application/json' } });
    return res.ok ? ((await res.json()) as PaymentResult) : { state: 'checking' };
  } catch {
    return { state: 'checking' };
  }
}

async function check(): Promise<void> {
  for (let i = 0; i < MAX_CHECKS; i++) {
    const result = await ask();
    show(words(result));
    if (result.state !== 'checking') return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  show([
    'Payment still being confirmed',
    'The bank has not confirmed your payment yet. Check your e-mail, or contact us before paying again.',
  ]);
}

void check();
