import type { CheckoutGateway } from '../gateway.js';
import type { GatewayCredentials } from '../options.js';

// A variable specifier keeps @pg-checkout/node optional until credentials are actually used.
const NODE_PACKAGE = '@pg-checkout/node';

/** Builds a GatewayClient from credentials (loaded on first use). */
export async function createGatewayClient(
  credentials: GatewayCredentials,
  environment: 'production' | 'development',
): Promise<CheckoutGateway> {
  const { GatewayClient } = (await import(NODE_PACKAGE)) as {
    GatewayClient: new (options: Record<string, unknown>) => CheckoutGateway;
  };
  return new GatewayClient(
    credentials.baseUrl ? { ...credentials } : { ...credentials, environment },
  );
}
