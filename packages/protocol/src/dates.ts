/** yyyy-MM-ddTHH:mm:ss, the envelope's transactionDate. */
export const TRANSACTION_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
/** yyyy-MM-dd'T'HH:mm:ss.SSS'Z', used by list filters, lookups and transfer dates. */
export const ISO_MILLIS_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** yyyy-MM-dd HH:mm:ss, the webhooks' paymentDate and payoutDate. */
export const WEBHOOK_DATE_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/** yyyy-MM-dd, v3 transactionDate (end of travel or delivery). */
export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function assertValid(date: Date): void {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new TypeError('expected a valid Date');
  }
}

function day(date: Date): string {
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

function time(date: Date): string {
  return `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/** `yyyy-MM-ddTHH:mm:ss` in UTC (the spec does not name a time zone; we use UTC everywhere). */
export function formatTransactionDate(date: Date): string {
  assertValid(date);
  return `${day(date)}T${time(date)}`;
}

/** `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` in UTC. */
export function formatIsoMillis(date: Date): string {
  assertValid(date);
  return `${day(date)}T${time(date)}.${pad(date.getUTCMilliseconds(), 3)}Z`;
}

/** `yyyy-MM-dd HH:mm:ss` in UTC. */
export function formatWebhookDate(date: Date): string {
  assertValid(date);
  return `${day(date)} ${time(date)}`;
}

/** `yyyy-MM-dd` in UTC. */
export function formatDay(date: Date): string {
  assertValid(date);
  return day(date);
}

/** True when a pattern-shaped string also names a real calendar day (rejects 2024-02-30). */
export function isRealDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
