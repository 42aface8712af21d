import type { CheckoutGateway } from '../gateway.js';
import type { CheckoutLogger } from '../logger.js';
import { redactingLogger, stderrLogger } from '../logger.js';
import type { CheckoutOptions, PaymentMethodName } from '../options.js';
import { MemoryStore } from '../stores/memory.js';
import type { CheckoutStore } from '../stores/store.js';
import { createGatewayClient } from './client.js';
import { parseByteSize } from './json-body.js';
import { createSecrets, type Secrets } from './secrets.js';

/** The validated options with every default filled in, shared by the routes. */
export interface Context {
  options: CheckoutOptions;
  store: CheckoutStore;
  logger: CheckoutLogger;
  gateway: () => Promise<CheckoutGateway>;
  /** Client secrets and 3-D Secure session tokens (stateless HMACs). */
  secrets: Secrets;
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
  rateLimit: false | { windowMs: number; perIp: number; perShopper: number };
}

export function createContext(options: CheckoutOptions): Context {
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const gatewayOption = options.gateway;
  let client: Promise<CheckoutGateway> | undefined;
  const credentials = 'payments' in gatewayOption ? undefined : gatewayOption;
  return {
    options,
    store: options.store ?? new MemoryStore(),
    logger: redactingLogger(options.logger ?? stderrLogger),
    gateway: () =>
      (client ??= credentials
        ? Promise.resolve(createGatewayClient(credentials))
        : Promise.resolve(gatewayOption as CheckoutGateway)),
    secrets: createSecrets({
      ...(options.sessionSecret ? { sessionSecret: options.sessionSecret } : {}),
      derivedFrom: credentials?.secret ?? options.webhookSecret,
      sessionTtlMs: options.sessionTtlMs ?? 30 * 60_000,
    }),
    publicUrl,
    publicOrigin: new URL(publicUrl).origin,
    allowedOrigins: options.allowedOrigins?.map((o) => new URL(o).origin),
    bodyLimitBytes: parseByteSize(options.bodyLimit ?? '16kb')!,
    methods: options.methods ?? ['card'],
    webhookSecret: options.webhookSecret ?? credentials?.secret,
    sessionTtlMs: options.sessionTtlMs ?? 30 * 60_000,
    reconcileGraceMs: options.reconcileGraceMs ?? 60_000,
    recordTtlMs: 24 * 60 * 60_000,
    rateLimit:
      options.rateLimit === false
        ? false
        : {
            windowMs: options.rateLimit?.windowMs ?? 60_000,
            perIp: options.rateLimit?.perIp ?? 20,
            perShopper: options.rateLimit?.perShopper ?? 10,
          },
  };
}
