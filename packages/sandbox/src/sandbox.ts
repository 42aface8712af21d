import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from './internal/app.js';
import { resolveChoices, type SandboxChoices, type SandboxProfile } from './internal/choices.js';
import { SandboxClock } from './internal/clock.js';
import type { Ctx } from './internal/context.js';
import { FaultInjector, type FaultOptions } from './internal/faults.js';
import { logError, silentLogger, type Logger } from './internal/logger.js';
import { Store } from './internal/store.js';
import { FAILURE_STATUSES, type FailureStatus, type Settings } from './internal/types.js';
import { WebhookDispatcher } from './internal/webhooks.js';

export type { SandboxChoices, SandboxProfile } from './internal/choices.js';
export type { FaultKind, FaultOptions } from './internal/faults.js';
export type { Logger } from './internal/logger.js';
export type { FailureStatus } from './internal/types.js';

export const DEFAULT_TOKEN = 'sandbox-token';
export const DEFAULT_SECRET = 'sandbox-secret';

export interface SandboxOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number | undefined;
  /** Interface to bind; default `127.0.0.1`. */
  host?: string | undefined;
  /** Merchant token; default `PG_SANDBOX_TOKEN` or `sandbox-token`. */
  token?: string | undefined;
  /** Merchant secret; default `PG_SANDBOX_SECRET` or `sandbox-secret`. */
  secret?: string | undefined;
  /** Request and webhook log lines; silent by default. Never receives card numbers. */
  logger?: Logger | undefined;
  /** Fault injection from the start; also settable with `POST /_sandbox/faults`. */
  faults?: FaultOptions | undefined;
  /** Base URL browsers use to reach the sandbox (ACS, method and payment pages); default the request's own origin. */
  publicUrl?: string | undefined;
  /** Initial merchant settings (notification options, payment pages). */
  settings?: Partial<Settings> | undefined;
  /**
   * Random source of fault injection and of hostile webhooks, to make their sequences reproducible
   * in tests; default `Math.random`.
   */
  random?: (() => number) | undefined;
  /**
   * `'default'` answers where the spec says "not shown" the way the README's "Choices" table says;
   * `'strict'` answers the least helpful way the spec allows (a reused merchant reference makes a new
   * transaction, an over-refund goes through, lists hold only exact matches, webhooks come late,
   * twice, out of order or never). Default `'default'`.
   */
  profile?: SandboxProfile | undefined;
  /** Single choices over the profile's, e.g. `{ webhooks: 'hostile' }`. */
  choices?: Partial<SandboxChoices> | undefined;
  /**
   * HTTP status of API failures (`success: false`): `'200'` (default; what the gateway's own clients
   * read) or `'4xx'` (400 malformed, 404 unknown reference, 409 not allowed now), to test clients
   * against both. Declines, 3-D Secure failures and pending refunds are 200 either way.
   */
  failureStatus?: FailureStatus | undefined;
}

export interface Sandbox {
  /** `http://host:port`, no trailing slash. */
  url: string;
  token: string;
  secret: string;
  port: number;
  /** The profile started with. */
  profile: SandboxProfile;
  /** The active choices (also `GET /_sandbox/choices`). */
  choices: Readonly<SandboxChoices>;
  close(): Promise<void>;
}

const KNOWN_OPTIONS = new Set([
  'port',
  'host',
  'token',
  'secret',
  'logger',
  'faults',
  'publicUrl',
  'settings',
  'random',
  'failureStatus',
  'profile',
  'choices',
]);

function checkOptions(options: SandboxOptions): void {
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`createSandbox: unknown option \`${key}\``);
  }
  if (
    options.port !== undefined &&
    (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535)
  ) {
    throw new TypeError('createSandbox: `port` must be an integer from 0 to 65535');
  }
  if (options.failureStatus !== undefined && !FAILURE_STATUSES.includes(options.failureStatus)) {
    throw new TypeError("createSandbox: `failureStatus` must be '200' or '4xx'");
  }
  if (options.publicUrl !== undefined && !/^https?:\/\//.test(options.publicUrl)) {
    throw new TypeError('createSandbox: `publicUrl` must be an absolute http(s) URL');
  }
  for (const key of ['token', 'secret'] as const) {
    if (options[key] !== undefined && (typeof options[key] !== 'string' || options[key] === '')) {
      throw new TypeError(`createSandbox: \`${key}\` must be a non-empty string`);
    }
  }
}

/** Starts a sandbox gateway and resolves once it listens. */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  checkOptions(options);
  const profile = options.profile ?? 'default';
  const choices = Object.freeze(resolveChoices(profile, options.choices ?? {}));
  const random = options.random ?? Math.random;
  const logger = options.logger ?? silentLogger;
  const clock = new SandboxClock((err) =>
    logError(logger, `scheduled task failed: ${err instanceof Error ? err.message : String(err)}`),
  );
  const ctx: Ctx = {
    token: options.token ?? process.env.PG_SANDBOX_TOKEN ?? DEFAULT_TOKEN,
    secret: options.secret ?? process.env.PG_SANDBOX_SECRET ?? DEFAULT_SECRET,
    store: new Store(clock.now()),
    clock,
    webhooks: new WebhookDispatcher(clock, logger, choices.webhooks, random),
    settings: {
      notifyFailed: false,
      notifyPending: false,
      notifyRefunds: false,
      paymentPageEnabled: true,
      pageUrlKeys: ['default'],
      ...options.settings,
      failureStatus: options.failureStatus ?? options.settings?.failureStatus ?? '200',
    },
    choices,
    profile,
    logger,
    publicUrl: options.publicUrl?.replace(/\/+$/, ''),
    acsKey: randomBytes(32),
  };
  const faults = new FaultInjector(options.faults, random);
  const app = buildApp(ctx, faults);
  const server: Server = createServer(app);
  server.keepAliveTimeout = 5_000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}`,
    token: ctx.token,
    secret: ctx.secret,
    port,
    profile,
    choices,
    close() {
      closing ??= new Promise<void>((resolve) => {
        clock.close();
        faults.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
