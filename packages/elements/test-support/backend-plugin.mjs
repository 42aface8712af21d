import { startMockBackend } from './mock-backend.mjs';

/**
 * Starts the backend the 3-D Secure and drop-in tests talk to when the test server starts, stops it
 * with the server, and tells the tests where it is at `/__pg-backend.json`.
 */
export function backendPlugin() {
  let backend;
  return {
    name: 'pg-backend',
    async serverStart() {
      backend = await startMockBackend();
    },
    async serverStop() {
      await backend?.close();
    },
    serve(context) {
      if (context.path !== '/__pg-backend.json') return undefined;
      return {
        body: JSON.stringify({ url: backend.url, endpoint: backend.endpoint, kind: 'mock' }),
        type: 'json',
      };
    },
  };
}
