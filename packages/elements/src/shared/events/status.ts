/** The values of `<pg-checkout status>` (a fixed contract). */
export type CheckoutStatus =
  | 'idle'
  | 'submitting'
  | 'authenticating'
  /** An answer was lost after the request may have reached the shop: asking what became of the order. */
  | 'checking'
  | 'approved'
  | 'declined'
  | 'failed'
  | 'pending';
