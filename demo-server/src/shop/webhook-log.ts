/** What the back office shows of each webhook the shop received. */
export interface WebhookEntry {
  receivedAt: Date;
  kind: 'payment' | 'payout';
  verified: boolean;
  /** Why verification failed, when it did. */
  reason?: string | undefined;
  reference?: string | undefined;
  status?: string | undefined;
  amount?: number | undefined;
  currency?: string | undefined;
}

/** Verified webhooks kept; only another verified one pushes the oldest out. */
const MAX_VERIFIED = 200;
/** Refused or disagreeing ones kept, in their own list: anyone can send those. */
const MAX_OTHERS = 50;

function newest(list: WebhookEntry[], entry: WebhookEntry, max: number): void {
  list.unshift(entry);
  if (list.length > max) list.length = max;
}

/**
 * The webhooks the back office lists. Anything anyone can post (a forged or replayed webhook) lands
 * in a list of its own, so no amount of it pushes out what the gateway verified.
 */
export function createWebhookLog() {
  const verified: WebhookEntry[] = [];
  const others: WebhookEntry[] = [];
  return {
    add(entry: WebhookEntry): void {
      if (entry.verified) newest(verified, entry, MAX_VERIFIED);
      else newest(others, entry, MAX_OTHERS);
    },
    /** Both lists, newest first. */
    list(): readonly WebhookEntry[] {
      return [...verified, ...others].sort(
        (a, b) => b.receivedAt.getTime() - a.receivedAt.getTime(),
      );
    },
  };
}

/** The shop's log (one shop per process in `npm start`; the tests start shops as processes). */
export const webhookLog = createWebhookLog();
