import type { ReconcileSummary } from '../options.js';
import type { DeliveryResult } from '../facts/delivery.js';

/** What one sweep run counts as it goes. */
export type Summary = Omit<ReconcileSummary, 'busy'>;

/** Counts a delivery: resolved, or kept for the next run. */
export const counted = (summary: Summary, result: DeliveryResult): void => {
  if (result === 'delivered') summary.delivered++;
  else if (result === 'failed' || result === 'no_store') summary.failed++;
};
