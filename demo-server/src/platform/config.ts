import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { redactUrl, type DatabaseConfig } from './database/db.js';
import type { MetricsAccess } from './metrics/metrics.js';

/** Where `npm start` keeps its orders when DATABASE_URL is unset: demo-server/data. */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../data', import.meta.url));

/** The demo's settings, from the environment. */
export interface DemoConfig {
  /** Port of the shop (PORT, default 3000; 0 picks a free one). */
  port: number;
  /** Host the shop listens on (HOST, default 127.0.0.1). */
  host: string;
  /** Port of the in-process sandbox (SANDBOX_PORT, default 3001). */
  sandboxPort: number;
  /**
   * Profile of the in-process sandbox (SANDBOX_PROFILE, `default` or `strict`): strict answers the
   * least helpful way the gateway's spec allows. Ignored with a real gateway.
   */
  sandboxProfile?: 'default' | 'strict' | undefined;
  /** A real gateway instead of the sandbox: PG_BASE_URL, PG_TOKEN and PG_SECRET, all three. */
  gateway?: { baseUrl: string; token: string; secret: string } | undefined;
  /** Public origin of the shop when it is behind a proxy (PUBLIC_URL); default http://localhost:PORT. */
  publicUrl?: string | undefined;
  /**
   * Payment attempts allowed per client IP per minute (RATE_LIMIT_PER_IP, a number or `off`);
   * unset keeps the middleware's default (20 per IP, 10 per shopper).
   */
  rateLimitPerIp?: number | false | undefined;
  /** The back office's password (ADMIN_PASSWORD); unset: one is generated at start and printed. */
  adminPassword?: string | undefined;
  /**
   * Express's `trust proxy` (TRUST_PROXY): which hops may say the client's address and scheme in
   * X-Forwarded-For / X-Forwarded-Proto. Default `loopback`; `off` trusts none.
   */
  trustProxy: string | number | false;
  /**
   * Where the orders are kept: the PostgreSQL of DATABASE_URL, else embedded PGlite in DATA_DIR
   * (default demo-server/data).
   */
  database: DatabaseConfig;
  /**
   * Prometheus metrics on `/metrics`: off by default; METRICS=1 serves them to loopback clients only
   * (no proxy in between), METRICS_TOKEN=<secret> to anyone presenting `Authorization: Bearer <secret>`.
   */
  metrics: MetricsAccess;
}

function port(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535)
    throw new Error(`${name} must be a port number, got "${value}"`);
  return n;
}

function sandboxProfile(value: string | undefined): 'default' | 'strict' {
  const v = value?.trim();
  if (v === undefined || v === '' || v === 'default') return 'default';
  if (v === 'strict') return 'strict';
  throw new Error(`SANDBOX_PROFILE must be default or strict, got "${value}"`);
}

function rateLimit(value: string | undefined): number | false | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'off') return false;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(
      `RATE_LIMIT_PER_IP must be a whole number of attempts or "off", got "${value}"`,
    );
  return n;
}

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function trustProxy(value: string | undefined): string | number | false {
  if (value === undefined || value.trim() === '') return 'loopback';
  const v = value.trim();
  if (v === 'off' || v === 'false') return false;
  if (/^\d{1,2}$/.test(v)) return Number(v);
  const entries = v.split(',').map((e) => e.trim());
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const ok =
      extra === undefined &&
      (NAMED_RANGES.has(entry) ||
        (isIP(address ?? '') !== 0 && (bits === undefined || /^\d{1,3}$/.test(bits))));
    if (!ok) {
      throw new Error(
        `TRUST_PROXY must be "off", a number of hops, or addresses, subnets and loopback/linklocal/uniquelocal separated by commas; "${entry}" is none of them (trusting every address would let any client claim https)`,
      );
    }
  }
  return entries.join(',');
}

function adminPassword(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length < 8) throw new Error('ADMIN_PASSWORD must be at least 8 characters long');
  return value;
}

function database(env: NodeJS.ProcessEnv): DatabaseConfig {
  const url = env.DATABASE_URL?.trim();
  if (url) {
    let protocol = '';
    try {
      protocol = new URL(url).protocol;
    } catch {
      // reported below
    }
    if (protocol !== 'postgres:' && protocol !== 'postgresql:')
      throw new Error(
        `DATABASE_URL must be a postgres:// or postgresql:// URL, got "${redactUrl(url)}"`,
      );
    return { kind: 'postgres', url };
  }
  const dir = env.DATA_DIR?.trim();
  return { kind: 'pglite', dir: dir ? resolve(dir) : DEFAULT_DATA_DIR };
}

function metrics(env: NodeJS.ProcessEnv): MetricsAccess {
  const token = env.METRICS_TOKEN?.trim();
  if (token) {
    if (token.length < 16)
      throw new Error('METRICS_TOKEN must be at least 16 characters long (it guards /metrics)');
    return { token };
  }
  const on = env.METRICS?.trim().toLowerCase();
  if (on === undefined || on === '' || on === '0' || on === 'off' || on === 'false') return false;
  if (on === '1' || on === 'on' || on === 'true') return {};
  throw new Error(
    `METRICS must be 1 or off (METRICS_TOKEN serves them beyond loopback), got "${env.METRICS}"`,
  );
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): DemoConfig {
  const { PG_BASE_URL, PG_TOKEN, PG_SECRET } = env;
  const given = [PG_BASE_URL, PG_TOKEN, PG_SECRET].filter(Boolean).length;
  if (given > 0 && given < 3) {
    throw new Error(
      'Set all three of PG_BASE_URL, PG_TOKEN and PG_SECRET to use a real gateway, or none for the sandbox',
    );
  }
  return {
    port: port(env.PORT, 3000, 'PORT'),
    host: env.HOST || '127.0.0.1',
    sandboxPort: port(env.SANDBOX_PORT, 3001, 'SANDBOX_PORT'),
    sandboxProfile: sandboxProfile(env.SANDBOX_PROFILE),
    gateway:
      given === 3 ? { baseUrl: PG_BASE_URL!, token: PG_TOKEN!, secret: PG_SECRET! } : undefined,
    publicUrl: env.PUBLIC_URL || undefined,
    rateLimitPerIp: rateLimit(env.RATE_LIMIT_PER_IP),
    adminPassword: adminPassword(env.ADMIN_PASSWORD),
    trustProxy: trustProxy(env.TRUST_PROXY),
    database: database(env),
    metrics: metrics(env),
  };
}
