import { redact, redactText } from './cards/mask.js';

/** What the middleware logs through; `console` fits, so do pino and winston loggers. */
export interface CheckoutLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The default: warnings and errors to stderr as one JSON line each; info is dropped. */
export const stderrLogger: CheckoutLogger = {
  info: () => undefined,
  warn: (message, fields) => console.error(JSON.stringify({ level: 'warn', message, ...fields })),
  error: (message, fields) => console.error(JSON.stringify({ level: 'error', message, ...fields })),
};

/** Wraps a logger so no card number or CVV reaches it, whatever the caller passes. */
export function redactingLogger(logger: CheckoutLogger): CheckoutLogger {
  const wrap =
    (level: keyof CheckoutLogger) =>
    (message: string, fields?: Record<string, unknown>): void => {
      try {
        logger[level](
          redactText(message),
          fields ? (redact(fields) as Record<string, unknown>) : undefined,
        );
      } catch {
        // A broken merchant logger must not break a payment.
      }
    };
  return { info: wrap('info'), warn: wrap('warn'), error: wrap('error') };
}

/** Where a setup fault is said once: the context's logger and what it already said. */
export interface SaidOnce {
  logger: CheckoutLogger;
  said: Set<string>;
}

/** Says a setup fault once per process and checkout, loudly: a merchant must see it, a log must not fill. */
export function sayOnce(
  ctx: SaidOnce,
  key: string,
  message: string,
  fields: Record<string, unknown>,
  level: 'warn' | 'error' = 'error',
): void {
  if (ctx.said.has(key)) return;
  ctx.said.add(key);
  ctx.logger[level](message, fields);
}
