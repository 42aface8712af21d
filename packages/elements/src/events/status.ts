/** The values of `<pg-checkout status>` (a fixed contract). */
export type CheckoutStatus =
  'idle' | 'submitting' | 'authenticating' | 'approved' | 'declined' | 'failed' | 'pending';
