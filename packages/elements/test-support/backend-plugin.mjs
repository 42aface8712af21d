import { startMockBackend } from './mock-backend.mjs';
import { proxy, startRealBackend } from './real-backend-process.mjs';

/**
 * The backends the tests talk to, started with the test server and stopped with it:
 * - the real stack (sandbox + @pg-checkout/express) behind `/checkout` on the test page's own origin;
 * - a small contract-shaped stand-in on another origin whose bank can hold forever or answer by
 *   itself, for timing, cancel, timeout and wrong-origin cases the sandbox's OTP pages cannot stage.
 * Tests read where they are from `/__pg-backend.json`.
 */
// Module state, not closure state: the test runner may evaluate the config more than once.
const shared = { realPort: undefined, sandboxPort: undefined };

/** Forwards `/checkout/*` to the real middleware and `/_sandbox/*` (inspection) to the sandbox. */
export const backendMiddleware = [
  proxy('/checkout', () => shared.realPort),
  proxy('/_sandbox', () => shared.sandboxPort),
];

export function backendPlugin() {
  let mock;
  let real;
  let realError;
  return {
    name: 'pg-backend',
    async serverStart({ config }) {
      mock = await startMockBackend();
      const pageOrigin = `${config.protocol ?? 'http:'}//${config.hostname}:${config.port}`;
      try {
        real = await startRealBackend(pageOrigin);
        shared.realPort = real.port;
        shared.sandboxPort = Number(new URL(real.sandboxUrl).port);
      } catch (error) {
        realError = String(error);
        console.error(`pg-backend: ${realError}; the integration tests will fail`);
      }
    },
    async serverStop() {
      await Promise.all([mock?.close(), real?.close()]);
    },
    serve(context) {
      if (context.path !== '/__pg-backend.json') return undefined;
      const body = {
        url: mock.url,
        publicUrl: mock.publicUrl,
        endpoint: mock.endpoint,
        kind: 'mock',
        real: real ? { endpoint: '/checkout', sandboxUrl: real.sandboxUrl } : { error: realError },
      };
      return { body: JSON.stringify(body), type: 'json' };
    },
  };
}
