import { z } from 'zod';
import { parseByteSize } from './json-body.js';
import type { CheckoutOptions } from '../options.js';

const KNOWN_KEYS = [
  'gateway',
  'webhookSecret',
  'sessionSecret',
  'publicUrl',
  'resolveOrder',
  'allowedOrigins',
  'store',
  'rateLimit',
  'savedCards',
  'methods',
  'redirectUrls',
  'autoExecute',
  'onPaymentCompleted',
  'onPaymentFailed',
  'onPaymentPending',
  'onWebhook',
  'logger',
  'environment',
  'bodyLimit',
  'sessionTtlMs',
  'reconcileGraceMs',
] as const;

// Aliases people type from other SDKs, beyond what edit distance finds.
const ALIASES: Record<string, string> = {
  secretKey: 'webhookSecret',
  secret: 'gateway',
  client: 'gateway',
  baseUrl: 'publicUrl',
};

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(
        row[j]! + 1,
        row[j - 1]! + 1,
        previous + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1),
      );
      previous = current;
    }
  }
  return row[b.length]!;
}

function suggest(key: string, known: readonly string[]): string | undefined {
  if (ALIASES[key] && known.includes(ALIASES[key])) return ALIASES[key];
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of known) {
    const score = distance(key, candidate);
    if (score < bestScore) [best, bestScore] = [candidate, score];
  }
  return bestScore <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

function unknownKeyError(where: string, key: string, known: readonly string[]): TypeError {
  const hint = suggest(key, known);
  return new TypeError(
    `createCheckout: unknown option \`${where}${key}\`${hint ? `, did you mean \`${where}${hint}\`?` : ''}`,
  );
}

const fn = z.custom<(...args: never[]) => unknown>(
  (v) => typeof v === 'function',
  'must be a function',
);
const absoluteUrl = z
  .string()
  .refine(
    (v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol),
    'must be an absolute http(s) URL',
  );

const credentialsSchema = z.strictObject({
  token: z.string().min(1, 'gateway.token is missing'),
  secret: z.string().min(1, 'gateway.secret is missing'),
  baseUrl: absoluteUrl,
  timeoutMs: z.number().int().positive().optional(),
});

const clientSchema = z.looseObject({
  payments: z.looseObject({ create: fn, confirm3dsV1: fn, confirm3dsV2: fn, confirmStep2: fn }),
  lookups: z.looseObject({ payment: fn }),
  reconcile: fn,
});

const schema = z.strictObject({
  gateway: z.union([credentialsSchema, clientSchema], {
    error: 'gateway must be a GatewayClient or { token, secret, baseUrl? }',
  }),
  webhookSecret: z.string().min(1).optional(),
  sessionSecret: z.string().min(32, 'must be at least 32 characters').optional(),
  publicUrl: absoluteUrl,
  resolveOrder: fn,
  allowedOrigins: z.array(absoluteUrl).optional(),
  store: z
    .looseObject(
      {
        get: fn,
        set: fn,
        setIfAbsent: fn,
        delete: fn,
        increment: fn,
        lockAndGet: fn,
        writeAll: fn,
      },
      { error: 'store must implement CheckoutStore' },
    )
    .optional(),
  rateLimit: z
    .union([
      z.literal(false),
      z.strictObject({
        windowMs: z.number().int().positive().optional(),
        perIp: z.number().int().positive().optional(),
        perShopper: z.number().int().positive().optional(),
      }),
    ])
    .optional(),
  savedCards: z.strictObject({ shopperId: fn, maySaveCard: fn.optional() }).optional(),
  methods: z
    .array(z.enum(['card', 'hosted', 'eft', 'redirect']))
    .min(1)
    .optional(),
  redirectUrls: z
    .strictObject({ success: absoluteUrl, cancel: absoluteUrl, error: absoluteUrl })
    .optional(),
  autoExecute: z.boolean().optional(),
  onPaymentCompleted: fn.optional(),
  onPaymentFailed: fn.optional(),
  onPaymentPending: fn.optional(),
  onWebhook: fn.optional(),
  logger: z
    .looseObject(
      { info: fn, warn: fn, error: fn },
      { error: 'logger needs info, warn and error methods' },
    )
    .optional(),
  environment: z.enum(['production', 'development']).optional(),
  bodyLimit: z
    .union([z.string(), z.number()])
    .refine((size) => parseByteSize(size) !== undefined, {
      error: 'bodyLimit must be a size such as "16kb", "1mb" or a positive whole number of bytes',
    })
    .optional(),
  sessionTtlMs: z.number().int().min(60_000).optional(),
  reconcileGraceMs: z.number().int().min(0).optional(),
});

/** Checks the options once, at setup, and throws a TypeError that says exactly what is wrong. */
export function validateOptions(options: unknown): CheckoutOptions {
  if (!options || typeof options !== 'object')
    throw new TypeError('createCheckout: options object is required');
  for (const key of Object.keys(options)) {
    if (!(KNOWN_KEYS as readonly string[]).includes(key))
      throw unknownKeyError('', key, KNOWN_KEYS);
  }
  const gateway = (options as { gateway?: unknown }).gateway;
  if (gateway && typeof gateway === 'object' && !('payments' in gateway)) {
    const known = ['token', 'secret', 'baseUrl', 'timeoutMs'];
    for (const key of Object.keys(gateway))
      if (!known.includes(key)) throw unknownKeyError('gateway.', key, known);
    if (!('secret' in gateway))
      throw new TypeError('createCheckout: missing secret: `gateway.secret` is required');
  }
  const parsed = schema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join('.') || 'options';
    throw new TypeError(`createCheckout: \`${path}\` ${issue.message}`);
  }
  const result = options as CheckoutOptions;
  const environment =
    result.environment ?? (process.env.NODE_ENV === 'production' ? 'production' : 'development');
  if (environment === 'production') {
    for (const [name, url] of [
      ['publicUrl', result.publicUrl],
      ...Object.entries(result.redirectUrls ?? {}).map(([k, v]) => [`redirectUrls.${k}`, v]),
    ]) {
      if (new URL(url as string).protocol !== 'https:') {
        throw new TypeError(
          `createCheckout: \`${name}\` must use https in production (got ${url})`,
        );
      }
    }
  }
  if (!result.webhookSecret && 'payments' in result.gateway) {
    throw new TypeError(
      'createCheckout: `webhookSecret` is required when `gateway` is a client (it checks the gateway’s webhooks; with credentials it is `gateway.secret`)',
    );
  }
  const methods = result.methods ?? ['card'];
  if (methods.some((m) => m !== 'card') && !result.redirectUrls) {
    throw new TypeError(
      'createCheckout: `redirectUrls` { success, cancel, error } is required for hosted, redirect and eft methods',
    );
  }
  return { ...result, environment };
}
