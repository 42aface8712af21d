/** The sandbox alone in its process, for the bench and the soak, in the profile `SANDBOX_PROFILE` names. */
import { createSandbox } from '@pg-checkout/sandbox';
import { seeded } from '../../soak/random.js';
import { serveCommands } from './serve.js';

// Under the soak, the sandbox's faults are drawn from the soak's seed too.
const profile = process.env.SANDBOX_PROFILE === 'strict' ? 'strict' : 'default';
const sandbox = await createSandbox({
  port: 0,
  host: '127.0.0.1',
  profile,
  ...(process.env.SOAK_SEED ? { random: seeded('sandbox-faults') } : {}),
});
serveCommands({ url: sandbox.url, token: sandbox.token, secret: sandbox.secret }, {}, () =>
  sandbox.close(),
);
