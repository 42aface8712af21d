/** IP address parsing without node:net, with the same answers as its `isIP`. */

const V4_PART = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)$/;
const V6_GROUP = /^[0-9a-f]{1,4}$/i;
const ZONE = /^[0-9a-z\-.:]+$/i;

/** The four bytes of a dotted-decimal IPv4 address (no leading zeros), or `undefined`. */
export function parseIPv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => V4_PART.test(p))) return undefined;
  return parts.map(Number);
}

/**
 * The eight 16-bit words of an IPv6 address (`::` and a dotted IPv4 tail expanded, a `%zone`
 * dropped), or `undefined` when it is not one.
 */
export function parseIPv6(text: string): number[] | undefined {
  const percent = text.indexOf('%');
  if (percent !== -1 && !ZONE.test(text.slice(percent + 1))) return undefined;
  const address = percent === -1 ? text : text.slice(0, percent);
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string) => (half === '' ? [] : half.split(':'));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  const last = halves.length === 2 ? right : left;
  // A dotted IPv4 tail stands for the last two words.
  const tail = last.length > 0 && last[last.length - 1]!.includes('.') ? last.pop()! : undefined;
  const v4 = tail === undefined ? [] : parseIPv4(tail);
  if (!v4) return undefined;
  const words = (list: string[]) => (list.every((g) => V6_GROUP.test(g)) ? list : undefined);
  if (!words(left) || !words(right)) return undefined;
  const tailWords = v4.length === 4 ? [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!] : [];
  const given = left.length + right.length + tailWords.length;
  // Without `::` all eight words are written; `::` stands for at least one.
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  return [
    ...left.map((g) => parseInt(g, 16)),
    ...Array<number>(8 - given).fill(0),
    ...right.map((g) => parseInt(g, 16)),
    ...tailWords,
  ];
}

/** 4 or 6 when `text` is an IPv4 or IPv6 address, else 0 (as node:net's `isIP`). */
export function ipVersion(text: string): 0 | 4 | 6 {
  if (typeof text !== 'string') return 0;
  if (parseIPv4(text)) return 4;
  return parseIPv6(text) ? 6 : 0;
}
