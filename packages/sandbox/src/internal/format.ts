const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function parts(ms: number): [string, string, string] {
  const d = new Date(ms);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return [date, time, pad(d.getUTCMilliseconds(), 3)];
}

/** `yyyy-MM-ddTHH:mm:ss` in UTC, the envelope's transactionDate. */
export function formatTransactionDate(ms: number): string {
  const [date, time] = parts(ms);
  return `${date}T${time}`;
}

/** `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`, used by lookups, lists and the notify `date`. */
export function formatIsoMillis(ms: number): string {
  const [date, time, millis] = parts(ms);
  return `${date}T${time}.${millis}Z`;
}

/** `yyyy-MM-dd HH:mm:ss`, used by webhook payloads. */
export function formatWebhookDate(ms: number): string {
  const [date, time] = parts(ms);
  return `${date} ${time}`;
}

/** `yyyy-MM-dd`, the v3 transactionDate. */
export function formatDay(ms: number): string {
  return parts(ms)[0];
}

/** First six and last four digits; everything between becomes X. */
export function maskPan(pan: string): string {
  if (pan.length < 11) return 'X'.repeat(pan.length);
  return pan.slice(0, 6) + 'X'.repeat(pan.length - 10) + pan.slice(-4);
}

const ISO_MILLIS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z?$/;

/** Parses the spec's `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` (milliseconds and Z optional) as UTC; undefined if invalid. */
export function parseIsoMillis(value: string): number | undefined {
  const m = ISO_MILLIS.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, ms] = m;
  const t = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!, ms ? +ms.padEnd(3, '0') : 0);
  const back = new Date(t);
  return back.getUTCDate() === +d! &&
    back.getUTCMonth() === +mo! - 1 &&
    +h! < 24 &&
    +mi! < 60 &&
    +s! < 60
    ? t
    : undefined;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses `yyyy-MM-dd` to the UTC midnight epoch ms; undefined if not a real date. */
export function parseDay(value: string): number | undefined {
  const m = DAY.exec(value);
  if (!m) return undefined;
  const t = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!);
  const back = new Date(t);
  return back.getUTCDate() === +m[3]! && back.getUTCMonth() === +m[2]! - 1 ? t : undefined;
}

/** Minimal HTML escaping for values placed in text or double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
