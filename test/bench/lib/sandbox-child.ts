/** The sandbox alone in its process, for the bench and the soak. */
import { createSandbox } from '@pg-checkout/sandbox';
import { serveCommands } from './serve.js';

const sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
serveCommands({ url: sandbox.url, token: sandbox.token, secret: sandbox.secret }, {}, () =>
  sandbox.close(),
);
