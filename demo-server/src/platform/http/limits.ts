import { isIPv4, isIPv6 } from 'node:net';

/**
 * Who a limit counts: an IPv4 address, or the /64 network of an IPv6 one (a single host is handed a
 * whole /64 and may use any address in it), IPv4-mapped IPv6 as IPv4.
 */
export function networkOf(ip: string | undefined): string {
  const address = (ip ?? '').split('%')[0]!.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return 'unknown';
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * A fixed-window limit per key under a ceiling for all keys together. Its memory is bounded by the
 * ceiling and starts over each window, so nothing is ever evicted to make room: past the ceiling
 * every key waits for the next window.
 */
export class WindowLimit {
  private counts = new Map<string, number>();
  private total = 0;
  private windowStart = 0;

  constructor(
    private readonly opts: { windowMs: number; perKey: number; global: number },
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one use by `key`; false (and how long to wait) when over either limit. */
  take(key: string): { ok: true } | { ok: false; retryAfterMs: number } {
    const now = this.now();
    if (now - this.windowStart >= this.opts.windowMs) {
      this.windowStart = now;
      this.counts = new Map();
      this.total = 0;
    }
    const retryAfterMs = this.windowStart + this.opts.windowMs - now;
    if (this.total >= this.opts.global) return { ok: false, retryAfterMs };
    const used = this.counts.get(key) ?? 0;
    if (used >= this.opts.perKey) return { ok: false, retryAfterMs };
    this.counts.set(key, used + 1);
    this.total += 1;
    return { ok: true };
  }
}
