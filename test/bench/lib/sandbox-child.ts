/** The sandbox alone in its process, for the bench and the soak. */
import { createSandbox } from '@pg-checkout/sandbox';
import { seeded } from '../../soak/random.js';
import { serveCommands } from './serve.js';

// Under the soak, the sandbox's faults are drawn from the soak's seed too.
const sandbox = await createSandbox({
  port: 0,
  host: '127.0.0.1',
  ...(process.env.SOAK_SEED ? { random: seeded('sandbox-faults') } : {}),
});
serveCommands({ url: sandbox.url, token: sandbox.token, secret: sandbox.secret }, {}, () =>
  sandbox.close(),
);
