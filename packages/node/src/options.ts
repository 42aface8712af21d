/** Environment names; each has its own token/secret pair, which must not be mixed. */
export const Environments = {
  PRODUCTION: 'production',
  DEVELOPMENT: 'development',
} as const;
export type Environment = (typeof Environments)[keyof typeof Environments];

export interface GatewayLogger {
  debug?(message: string, meta?: Record<string, unknown>): void;
  warn?(message: string, meta?: Record<string, unknown>): void;
}

export interface GatewayClientOptions {
  /** Application token for the environment in use (sent as X-Token). Required. */
  token: string;
  /** Secret key for the environment in use (signs requests, checks webhooks). Required. */
  secret: string;
  /** Gateway base URL, e.g. the sandbox's `http://127.0.0.1:8787`. Either this or `environment`. */
  baseUrl?: string | undefined;
  /** Named environment; picks its URL from `baseUrls` (the spec publishes no hostnames). */
  environment?: Environment | undefined;
  /** Base URLs of the two environments, from the merchant's gateway documentation. */
  baseUrls?: Partial<Record<Environment, string>> | undefined;
  /** Per-attempt timeout. Default 30 000 ms. */
  timeoutMs?: number | undefined;
  /** fetch implementation, called as a plain function (never as a method). Default: the global `fetch`. */
  fetch?: typeof fetch | undefined;
  /** Extra attempts for GET requests after a connection error or 5xx. Default 2. POSTs are never retried. */
  retries?: number | undefined;
  /** First retry delay; each later one doubles, with full jitter, capped at 5 s. Default 200 ms. */
  retryDelayMs?: number | undefined;
  /** Receives one line per request (method, path, status, duration); never bodies. Default: silent. */
  logger?: GatewayLogger | undefined;
}

export interface ResolvedOptions {
  token: string;
  secret: string;
  baseUrl: string;
  environment: Environment | undefined;
  timeoutMs: number;
  fetch: typeof fetch;
  retries: number;
  retryDelayMs: number;
  logger: GatewayLogger;
}

const KNOWN = [
  'token',
  'secret',
  'baseUrl',
  'environment',
  'baseUrls',
  'timeoutMs',
  'fetch',
  'retries',
  'retryDelayMs',
  'logger',
] as const;

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

function suggest(key: string): string {
  const lower = key.toLowerCase();
  const best = [...KNOWN].sort(
    (x, y) => distance(lower, x.toLowerCase()) - distance(lower, y.toLowerCase()),
  )[0]!;
  const close =
    distance(lower, best.toLowerCase()) <= 3 ||
    lower.includes(best.toLowerCase()) ||
    best.toLowerCase().includes(lower);
  return close ? `, did you mean \`${best}\`?` : '';
}

function normalizeBaseUrl(value: string, label: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(
      `${label} must be an absolute URL such as https://gateway.example, got ${JSON.stringify(value)}`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`${label} must use http or https`);
  }
  if (url.search || url.hash) throw new TypeError(`${label} must not carry a query or fragment`);
  return url.toString().replace(/\/+$/, '');
}

/** Checks the options once, at construction, and says exactly what is wrong. */
export function resolveOptions(options: GatewayClientOptions): ResolvedOptions {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('GatewayClient needs an options object: { token, secret, baseUrl }');
  }
  for (const key of Object.keys(options)) {
    if (!(KNOWN as readonly string[]).includes(key)) {
      throw new TypeError(`unknown option \`${key}\`${suggest(key)}`);
    }
  }
  const { token, secret } = options;
  if (typeof token !== 'string' || token.trim() === '')
    throw new TypeError('option `token` is required (a non-empty string)');
  if (typeof secret !== 'string' || secret.trim() === '')
    throw new TypeError('option `secret` is required (a non-empty string)');

  let baseUrl: string;
  const environment = options.environment;
  if (options.baseUrl !== undefined) {
    if (environment !== undefined)
      throw new TypeError('give either `baseUrl` or `environment`, not both');
    baseUrl = normalizeBaseUrl(options.baseUrl, '`baseUrl`');
  } else if (environment !== undefined) {
    if (environment !== 'production' && environment !== 'development') {
      throw new TypeError("option `environment` must be 'production' or 'development'");
    }
    const named = options.baseUrls?.[environment];
    if (named === undefined) {
      throw new TypeError(
        `option \`baseUrls.${environment}\` is required with environment '${environment}'`,
      );
    }
    baseUrl = normalizeBaseUrl(named, `\`baseUrls.${environment}\``);
  } else {
    throw new TypeError('option `baseUrl` (or `environment` with `baseUrls`) is required');
  }

  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new TypeError('option `timeoutMs` must be a positive number of milliseconds');
  const retries = options.retries ?? 2;
  if (!Number.isInteger(retries) || retries < 0 || retries > 10)
    throw new TypeError('option `retries` must be an integer from 0 to 10');
  const retryDelayMs = options.retryDelayMs ?? 200;
  if (!Number.isFinite(retryDelayMs) || retryDelayMs < 0)
    throw new TypeError('option `retryDelayMs` must be a non-negative number');
  if (options.fetch !== undefined && typeof options.fetch !== 'function')
    throw new TypeError('option `fetch` must be a function');
  if (options.fetch === undefined && typeof globalThis.fetch !== 'function')
    throw new TypeError('option `fetch` must be a function (no global fetch found)');
  // Called unbound: workerd's fetch throws "Illegal invocation" when called with any other `this`.
  const given = options.fetch;
  const fetchImpl: typeof fetch = given
    ? (input, init) => given(input, init)
    : (input, init) => globalThis.fetch(input, init);

  return {
    token,
    secret,
    baseUrl,
    environment,
    timeoutMs,
    fetch: fetchImpl,
    retries,
    retryDelayMs,
    logger: options.logger ?? {},
  };
}
