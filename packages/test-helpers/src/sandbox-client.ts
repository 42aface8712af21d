import { GatewayClient } from '@pg-checkout/node';
import type { Sandbox } from '@pg-checkout/sandbox';
import { startTestSandbox } from './sandbox.js';

/** A sandbox on 127.0.0.1 (port 0) and a gateway client of it, as the refund tests start them. */
export interface SandboxClient {
  sandbox: Sandbox;
  client: GatewayClient;
  close(): Promise<void>;
}

/** Starts the sandbox and its client; `options` go to the client (e.g. a short `retryDelayMs`). */
export async function startSandboxClient(
  options: Partial<ConstructorParameters<typeof GatewayClient>[0]> = {},
): Promise<SandboxClient> {
  const sandbox = await startTestSandbox();
  const client = new GatewayClient({
    baseUrl: sandbox.url,
    token: sandbox.token,
    secret: sandbox.secret,
    ...options,
  });
  return { sandbox, client, close: () => sandbox.close() };
}
