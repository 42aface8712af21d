import { PAYMENT_METHODS, REDIRECT_METHODS } from '@pg-checkout/protocol/vocabulary';
import { z } from 'zod';
import { parseByteSize } from './byte-size.js';
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
  'onRefundCompleted',
  'onOrderChanged',
  'onSuspectedCardTesting',
  'onRefundCompleted',
  'onWebhook',
  'onPageIntegrityReport',
  'logger',
  'environment',
  'bodyLimit',
  'sessionTtlMs',
  'reconcileGraceMs',
  'reconcileIntervalMs',
  'telemetry',
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

function unknownKeyError(
  name: string,
  where: string,
  key: string,
  known: readonly string[],
): TypeError {
  const hint = suggest(key, known);
  return new TypeError(
    `${name}: unknown option \`${where}${key}\`${hint ? `, did you mean \`${where}${hint}\`?` : ''}`,
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

const declinesSchema = z.strictObject({
  perOrder: z.number().int().positive().optional(),
  perShopper: z.number().int().positive().optional(),
  perIp: z.number().int().positive().optional(),
  windowMs: z.number().int().min(60_000).optional(),
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
        global: z.number().int().positive().optional(),
        reads: z.number().int().positive().optional(),
        ipv6Prefix: z.number().int().min(1).max(128).optional(),
        declines: z.union([z.literal(false), declinesSchema]).optional(),
      }),
    ])
    .optional(),
  savedCards: z.strictObject({ shopperId: fn, maySaveCard: fn.optional() }).optional(),
  methods: z.array(z.enum(PAYMENT_METHODS)).min(1).optional(),
  redirectUrls: z
    .strictObject({ success: absoluteUrl, cancel: absoluteUrl, error: absoluteUrl })
    .optional(),
  autoExecute: z.boolean().optional(),
  onPaymentCompleted: fn.optional(),
  onPaymentFailed: fn.optional(),
  onPaymentPending: fn.optional(),
  onOrderChanged: fn.optional(),
  onSuspectedCardTesting: fn.optional(),
  onRefundCompleted: fn.optional(),
  onWebhook: fn.optional(),
  onPageIntegrityReport: fn.optional(),
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
  reconcileIntervalMs: z.union([z.literal(false), z.number().int().min(1_000)]).optional(),
  telemetry: z
    .strictObject({
      tracerProvider: z
        .looseObject({ getTracer: fn }, { error: 'tracerProvider needs a getTracer method' })
        .optional(),
      meterProvider: z
        .looseObject({ getMeter: fn }, { error: 'meterProvider needs a getMeter method' })
        .optional(),
      gatewaySpans: z.enum(['auto', 'always', 'never']).optional(),
      enabled: z.boolean().optional(),
    })
    .optional(),
});

const GATEWAY_FIX =
  'pass a GatewayClient from @pg-checkout/node, or { token, secret, baseUrl } (npx @pg-checkout/sandbox prints sandbox values ready for .env)';

/** Names the missing or wrong gateway setting and how to fix it. */
function checkGateway(name: string, gateway: unknown): void {
  if (gateway === undefined || gateway === null)
    throw new TypeError(`${name}: \`gateway\` is missing: ${GATEWAY_FIX}`);
  if (typeof gateway !== 'object')
    throw new TypeError(`${name}: \`gateway\` must be an object: ${GATEWAY_FIX}`);
  if ('payments' in gateway) return;
  const known = ['token', 'secret', 'baseUrl', 'timeoutMs'];
  for (const key of Object.keys(gateway))
    if (!known.includes(key)) throw unknownKeyError(name, 'gateway.', key, known);
  const given = gateway as Record<string, unknown>;
  const missing = (key: string, what: string) =>
    new TypeError(
      `${name}: missing ${key === 'baseUrl' ? 'base URL' : key}: \`gateway.${key}\` is required (${what}; usually from the environment, e.g. PG_${key === 'baseUrl' ? 'BASE_URL' : key.toUpperCase()})`,
    );
  if (!given.token) throw missing('token', 'the merchant token the gateway issued');
  if (!given.secret) throw missing('secret', 'the merchant secret that signs each request');
  if (!given.baseUrl)
    throw missing('baseUrl', 'the gateway host only, e.g. https://gateway.example');
  if (typeof given.baseUrl === 'string' && URL.canParse(given.baseUrl)) {
    const path = new URL(given.baseUrl).pathname;
    if (/\/pg\/api(\/|$)/.test(path))
      throw new TypeError(
        `${name}: \`gateway.baseUrl\` must be the host only, without ${path}: the client adds /pg/api itself (got ${given.baseUrl})`,
      );
  }
}

const LOOPBACK_HTTP = 'only loopback (127.0.0.0/8, ::1, localhost) may use http, for tests';

/**
 * Production means https end to end, whatever form the gateway takes: card data and the signed
 * token never travel in clear to another machine. Loopback stays allowed (a sandbox in tests).
 */
function checkGatewayHttps(name: string, gateway: object): void {
  const client = 'payments' in gateway;
  const baseUrl = (gateway as { baseUrl?: unknown }).baseUrl;
  if (client && (typeof baseUrl !== 'string' || !URL.canParse(baseUrl)))
    throw new TypeError(
      `${name}: \`gateway.baseUrl\` is unknown: in production the gateway object must say where it sends card data. Pass a GatewayClient from @pg-checkout/node (it has one), or declare \`readonly baseUrl = 'https://...'\` on your own gateway object`,
    );
  if (typeof baseUrl !== 'string' || !plainHttpRemote(baseUrl)) return;
  throw new TypeError(
    client
      ? `${name}: \`gateway.baseUrl\` must use https in production: the client given as \`gateway\` sends to ${baseUrl}; create it with an https baseUrl (${LOOPBACK_HTTP})`
      : `${name}: \`gateway.baseUrl\` must use https in production (got ${baseUrl}); ${LOOPBACK_HTTP}`,
  );
}

/** An http URL of a host other than this machine. */
function plainHttpRemote(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return (
    protocol === 'http:' &&
    !/^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(hostname) &&
    !hostname.endsWith('.localhost')
  );
}

const DECLINE_KEYS = ['perOrder', 'perShopper', 'perIp', 'windowMs'];
// Names of the same idea in other libraries' card-testing settings.
const DECLINE_ALIASES: Record<string, string> = {
  maxDeclines: 'perOrder',
  max: 'perOrder',
  perClient: 'perIp',
  window: 'windowMs',
};

/** Names the wrong `rateLimit.declines` setting and what it takes. */
function checkDeclines(name: string, rateLimit: unknown): void {
  if (!rateLimit || typeof rateLimit !== 'object' || !('declines' in rateLimit)) return;
  const declines = (rateLimit as { declines: unknown }).declines;
  if (declines === undefined || declines === false) return;
  if (!declines || typeof declines !== 'object' || Array.isArray(declines))
    throw new TypeError(
      `${name}: \`rateLimit.declines\` must be false (off) or { perOrder?, perShopper?, perIp?, windowMs? } (declined cards allowed per scope and window), got ${JSON.stringify(declines)}`,
    );
  for (const [key, value] of Object.entries(declines)) {
    if (!DECLINE_KEYS.includes(key)) {
      const alias = DECLINE_ALIASES[key];
      if (alias)
        throw new TypeError(
          `${name}: unknown option \`rateLimit.declines.${key}\`, did you mean \`rateLimit.declines.${alias}\`?`,
        );
      throw unknownKeyError(name, 'rateLimit.declines.', key, DECLINE_KEYS);
    }
    const least = key === 'windowMs' ? 60_000 : 1;
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < least))
      throw new TypeError(
        key === 'windowMs'
          ? `${name}: \`rateLimit.declines.windowMs\` must be a whole number of milliseconds, at least 60_000 (default 3_600_000, one hour), got ${String(value)}`
          : `${name}: \`rateLimit.declines.${key}\` must be a whole number of declines, at least 1 (to turn the stop off: rateLimit.declines: false), got ${String(value)}`,
      );
  }
}

/** Checks the options once, at setup, and throws a TypeError that says exactly what is wrong. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function validateOptions(options: unknown, name = 'createCheckout'): CheckoutOptions<any> {
  if (!options || typeof options !== 'object')
    throw new TypeError(`${name}: options object is required`);
  for (const key of Object.keys(options)) {
    if (!(KNOWN_KEYS as readonly string[]).includes(key))
      throw unknownKeyError(name, '', key, KNOWN_KEYS);
  }
  checkGateway(name, (options as { gateway?: unknown }).gateway);
  checkDeclines(name, (options as { rateLimit?: unknown }).rateLimit);
  const parsed = schema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join('.') || 'options';
    throw new TypeError(`${name}: \`${path}\` ${issue.message}`);
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const result = options as CheckoutOptions<any>;
  const environment =
    result.environment ?? (nodeEnv() === 'production' ? 'production' : 'development');
  if (environment === 'production') {
    checkGatewayHttps(name, result.gateway);
    for (const [option, url] of [
      ['publicUrl', result.publicUrl],
      ...Object.entries(result.redirectUrls ?? {}).map(([k, v]) => [`redirectUrls.${k}`, v]),
    ]) {
      if (new URL(url as string).protocol !== 'https:') {
        throw new TypeError(`${name}: \`${option}\` must use https in production (got ${url})`);
      }
    }
  }
  if (!result.webhookSecret && 'payments' in result.gateway) {
    throw new TypeError(
      `${name}: \`webhookSecret\` is required when \`gateway\` is a client (it checks the gateway’s webhooks; with credentials it is \`gateway.secret\`)`,
    );
  }
  const methods = result.methods ?? ['card'];
  if (methods.some((m) => m !== 'card') && !result.redirectUrls) {
    throw new TypeError(
      `${name}: \`redirectUrls\` { success, cancel, error } is required for the methods that send the shopper to the gateway's page (${REDIRECT_METHODS.join(', ')})`,
    );
  }
  return { ...result, environment };
}

// Workers have no `process`: there the merchant names the environment.
const nodeEnv = () =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NODE_ENV;
