import type { CheckoutGateway } from '../gateway/port.js';
import type { CheckoutLogger } from '../logger.js';
import { redactingLogger, stderrLogger } from '../logger.js';
import type { CheckoutOptions, PaymentMethodName } from '../options.js';
import { MemoryStore } from '../stores/memory.js';
import type { CheckoutStore } from '../stores/store.js';
import { parseByteSize } from './byte-size.js';
import { createGatewayClient } from './client.js';
import { createSecrets, type Secrets } from './secrets.js';
import { createTelemetry, instrumentGateway, type Telemetry } from '../telemetry/index.js';

/** Limits with every default filled in. */
export interface Limits {
  windowMs: number;
  perIp: number;
  perShopper: number;
  reads: number;
  /** Per instance and window: payment starts, saved-card changes, reads. */
  ceiling: { pay: number; cards: number; read: number };
  ipv6Prefix: number;
  /** Declined cards per scope and window before card payments are refused; `false`: off. */
  declines: false | { perOrder: number; perShopper: number; perIp: number; windowMs: number };
}

/**
 * The core's dependencies, built once from the validated options: the gateway client, the store,
 * the clock, the limits and the merchant's hooks. Every use case takes it as its last argument.
 */
export interface Context {
  // The hooks take the adapter's request, which the core only passes through.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  options: CheckoutOptions<any>;
  store: CheckoutStore;
  logger: CheckoutLogger;
  gateway: () => Promise<CheckoutGateway>;
  /** Client secrets and 3-D Secure session tokens (stateless HMACs). */
  secrets: Secrets;
  /** Milliseconds since the epoch; the core reads time only here. */
  now: () => number;
  publicUrl: string;
  publicOrigin: string;
  /** Largest JSON body the browser routes read, in bytes (`bodyLimit`, default 16 KiB). */
  bodyLimitBytes: number;
  /** `allowedOrigins` reduced to origins once, at setup. */
  allowedOrigins: string[] | undefined;
  methods: PaymentMethodName[];
  webhookSecret: string | undefined;
  sessionTtlMs: number;
  reconcileGraceMs: number;
  recordTtlMs: number;
  rateLimit: false | Limits;
  /** This process's retries of money facts whose hook threw (see `delivery.ts`). */
  delivery: {
    timers: Map<string, ReturnType<typeof setTimeout>>;
    retryBaseMs: number;
    retryCapMs: number;
    closed: boolean;
  };
  /** Setup faults already said in the log (each is said once, loudly). */
  said: Set<string>;
  /** Spans and metrics (OpenTelemetry), or nothing at all when the application collects none. */
  telemetry: Telemetry;
}

export function createContext(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  options: CheckoutOptions<any>,
  {
    now = Date.now,
    retryBaseMs = 1_000,
  }: { now?: () => number; /** First hook retry delay, for tests. */ retryBaseMs?: number } = {},
): Context {
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const gatewayOption = options.gateway;
  let client: Promise<CheckoutGateway> | undefined;
  const credentials = 'payments' in gatewayOption ? undefined : gatewayOption;
  const limits = options.rateLimit === false ? undefined : (options.rateLimit ?? {});
  const ceiling = limits?.global ?? 600;
  const said = new Set<string>();
  const logger = redactingLogger(options.logger ?? stderrLogger);
  const telemetry = createTelemetry(options.telemetry);
  const delivery: Context['delivery'] = {
    timers: new Map(),
    retryBaseMs,
    retryCapMs: 5 * 60_000,
    closed: false,
  };
  // Facts whose hook threw and that this instance calls again (the store's outbox keeps them too).
  telemetry.waitingHookDeliveries(() => delivery.timers.size);
  // Built at the first request, when the application's SDK (if any) is registered.
  const measured = (gateway: CheckoutGateway) =>
    telemetry.recording ? instrumentGateway(gateway, telemetry) : gateway;
  return {
    options,
    store: options.store ?? new MemoryStore(),
    logger,
    // Production's https was checked at setup (validate-options.ts), whatever form the gateway took.
    gateway: () =>
      (client ??= Promise.resolve(
        measured(
          credentials ? createGatewayClient(credentials) : (gatewayOption as CheckoutGateway),
        ),
      )),
    secrets: createSecrets({
      ...(options.sessionSecret ? { sessionSecret: options.sessionSecret } : {}),
      derivedFrom: credentials?.secret ?? options.webhookSecret,
      sessionTtlMs: options.sessionTtlMs ?? 30 * 60_000,
      now,
    }),
    now,
    publicUrl,
    publicOrigin: new URL(publicUrl).origin,
    allowedOrigins: options.allowedOrigins?.map((o) => new URL(o).origin),
    bodyLimitBytes: parseByteSize(options.bodyLimit ?? '16kb')!,
    methods: options.methods ?? ['card'],
    webhookSecret: options.webhookSecret ?? credentials?.secret,
    sessionTtlMs: options.sessionTtlMs ?? 30 * 60_000,
    reconcileGraceMs: options.reconcileGraceMs ?? 60_000,
    recordTtlMs: 24 * 60 * 60_000,
    rateLimit: limits
      ? {
          windowMs: limits.windowMs ?? 60_000,
          perIp: limits.perIp ?? 20,
          perShopper: limits.perShopper ?? 10,
          reads: limits.reads ?? 120,
          ceiling: {
            pay: ceiling,
            cards: Math.max(10, Math.floor(ceiling / 10)),
            read: ceiling * 5,
          },
          ipv6Prefix: limits.ipv6Prefix ?? 64,
          declines:
            limits.declines === false
              ? false
              : {
                  perOrder: limits.declines?.perOrder ?? 10,
                  perShopper: limits.declines?.perShopper ?? 10,
                  perIp: limits.declines?.perIp ?? 30,
                  windowMs: limits.declines?.windowMs ?? 3_600_000,
                },
        }
      : false,
    delivery,
    said,
    telemetry,
  };
}
