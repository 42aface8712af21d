/** What the back office shows of each webhook the shop received. */
export interface WebhookEntry {
  receivedAt: Date;
  kind: 'payment' | 'payout';
  verified: boolean;
  /** Why verification failed, when it did. */
  reason?: string;
  reference?: string;
  status?: string;
  amount?: number;
  currency?: string;
}

const MAX = 200;
const entries: WebhookEntry[] = [];

export const webhookLog = {
  add(entry: WebhookEntry): void {
    entries.unshift(entry);
    if (entries.length > MAX) entries.length = MAX;
  },
  list(): readonly WebhookEntry[] {
    return entries;
  },
};
