import { GatewayClient } from '@pg-checkout/node';
import type { CheckoutGateway } from '../gateway/port.js';
import type { GatewayCredentials } from '../options.js';

/** Builds a GatewayClient from credentials; the annotation proves the real client fits the port. */
export function createGatewayClient(credentials: GatewayCredentials): CheckoutGateway {
  const client: CheckoutGateway = new GatewayClient({ ...credentials });
  return client;
}
