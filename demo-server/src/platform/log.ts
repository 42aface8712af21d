import { maskText } from '@pg-checkout/protocol';

/** Keys whose values are request bodies, never written to a log. */
const BODY_KEYS = new Set(['body', 'rawBody']);

/** An error as a log may show it: a parser's message quotes the body it choked on, so not that. */
function errorFields(err: Error): Record<string, unknown> {
  const out: Record<string, unknown> = { name: err.name };
  for (const key of ['code', 'type', 'status', 'statusCode', 'originalErrorCode', 'reason']) {
    const value = (err as unknown as Record<string, unknown>)[key];
    if (typeof value === 'string' || typeof value === 'number') out[key] = value;
  }
  if (!(err instanceof SyntaxError) && !('body' in err)) out.message = err.message;
  return out;
}

/**
 * A log line's details as JSON without request bodies, with errors reduced to their name, codes
 * and (unless a parser's) message, and with anything that looks like a card number masked.
 */
export function describeMeta(meta: unknown): string {
  const seen = new WeakSet<object>();
  const json = JSON.stringify(meta, (key, value: unknown) => {
    if (BODY_KEYS.has(key)) return '[omitted]';
    if (value instanceof Error) return errorFields(value);
    if (typeof value === 'object' && value !== null) {
      if (seen.has(value)) return '[repeated]';
      seen.add(value);
    }
    return value;
  });
  return maskText(json ?? '');
}

/** One log line with card-number-like text masked. */
export const safeLine = (line: string): string => maskText(line);
