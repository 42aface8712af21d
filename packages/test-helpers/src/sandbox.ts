import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { testProfile } from './profile.js';

export { testProfile };

/** A sandbox on 127.0.0.1, port 0, in {@link testProfile}; `options` over that. */
export function startTestSandbox(
  options: Partial<Parameters<typeof createSandbox>[0]> = {},
): Promise<Sandbox> {
  return createSandbox({ port: 0, host: '127.0.0.1', profile: testProfile(), ...options });
}
