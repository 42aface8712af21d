import type { FinalPaymentState } from '../api/types.js';

/** A failure the drop-in words itself (the middleware's own text is never shown). */
export const failure = (code: string, reference?: string): FinalPaymentState => ({
  success: false,
  status: 'failed',
  ...(reference === undefined ? {} : { reference }),
  code,
  message: '',
});
