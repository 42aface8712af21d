import { maskText } from '@pg-checkout/protocol';
import type { CheckoutLogger } from '@pg-checkout/express';

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

/** Where the demo writes: plain lines (`[sandbox] …`, `[shop] …`) and the checkout's own logger. */
export interface DemoLog {
  log: (line: string) => void;
  logger: CheckoutLogger;
}

/** Every line the demo writes passes here: card-number-like text is masked, bodies never printed. */
export function demoLog(write: (line: string) => void = (line) => console.log(line)): DemoLog {
  const log = (line: string) => write(safeLine(line));
  const line = (level: string, msg: string, meta?: unknown) =>
    log(`[checkout] ${level}${msg}${meta ? ' ' + describeMeta(meta) : ''}`);
  return {
    log,
    logger: {
      info: (msg, meta) => line('', msg, meta),
      warn: (msg, meta) => line('WARN ', msg, meta),
      error: (msg, meta) => line('ERROR ', msg, meta),
    },
  };
}
