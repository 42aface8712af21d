// The hosted page, redirect and EFT return here; the outcome in the URL is only a hint, so the page
// shows it without treating it as proof of payment (the webhook and the back office are authoritative).
const params = new URLSearchParams(location.search);
const outcome = params.get('outcome');
const title = document.getElementById('result-title')!;
const detail = document.getElementById('result-detail')!;
const messages: Record<string, [string, string]> = {
  success: ['Thank you!', 'Your payment went through. A confirmation follows by e-mail.'],
  cancel: ['Payment cancelled', 'You cancelled the payment. Nothing was charged.'],
  error: [
    'Payment failed',
    'The payment did not go through. Nothing was charged; please try again.',
  ],
};
const [heading, text] = messages[outcome ?? ''] ?? [
  'Payment status unknown',
  'We could not tell how the payment ended. Check your e-mail or contact us.',
];
title.textContent = heading;
detail.textContent = text;
