const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 * 1024 };
const SIZE = /^(\d+(?:\.\d+)?)\s*(b|kb|mb)?$/i;

/** `'16kb'`, `'1mb'`, `'512b'` or a number of bytes, as bytes; undefined when unreadable. */
export function parseByteSize(size: string | number): number | undefined {
  if (typeof size === 'number') return Number.isInteger(size) && size > 0 ? size : undefined;
  const match = SIZE.exec(size.trim());
  if (!match) return undefined;
  const bytes = Math.floor(Number(match[1]) * UNITS[(match[2] ?? 'b').toLowerCase()]!);
  return bytes > 0 ? bytes : undefined;
}
