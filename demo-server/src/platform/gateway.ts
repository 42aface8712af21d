import { GatewayClient } from '@pg-checkout/node';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import type { DemoConfig } from './config.js';

/** The gateway the shop pays through: the real one configured, or a sandbox started in-process. */
export interface ConnectedGateway {
  client: GatewayClient;
  /** The secret its webhooks are signed with. */
  secret: string;
  /** Its origin, which the payment pages' CSP lets frames and form posts reach. */
  origin: string;
  /** The in-process sandbox, when no real gateway is configured (closed with the shop). */
  sandbox: Sandbox | undefined;
}

/** Connects to the configured gateway (PG_BASE_URL…), or starts the sandbox when none is. */
export async function connectGateway(
  options: Pick<DemoConfig, 'gateway' | 'sandboxPort' | 'host' | 'sandboxProfile'>,
  log: (line: string) => void,
): Promise<ConnectedGateway> {
  const sandbox = options.gateway
    ? undefined
    : await createSandbox({
        port: options.sandboxPort,
        host: options.host,
        profile: options.sandboxProfile ?? 'default',
        logger: {
          info: (l: string) => log(`[sandbox] ${l}`),
          warn: (l: string) => log(`[sandbox] WARN ${l}`),
        },
      });
  const credentials = options.gateway ?? {
    baseUrl: sandbox!.url,
    token: sandbox!.token,
    secret: sandbox!.secret,
  };
  return {
    client: new GatewayClient(credentials),
    secret: credentials.secret,
    origin: new URL(credentials.baseUrl).origin,
    sandbox,
  };
}
