import { testCards } from '@pg-checkout/sandbox';
import { startDemo } from './app.js';
import { spaced } from './platform/html.js';
import { buildAssets } from './platform/build.js';
import { configFromEnv } from './platform/config.js';

const config = configFromEnv();
// The database, the sandbox and the server start while the pages build; a request meanwhile waits.
const built = buildAssets();
const starting = startDemo({ ...config, assetsReady: built });
try {
  await built;
} catch (error) {
  await (await starting.catch(() => undefined))?.close();
  throw error;
}
const demo = await starting;

const tryCards = testCards.filter((c) => c.featured);
console.log(`
pg-checkout demo shop: ${demo.url}
${
  demo.sandboxUrl
    ? `Gateway: sandbox in-process at ${demo.sandboxUrl} (dashboard on its root page)
Sandbox profile: ${demo.sandboxProfile} (SANDBOX_PROFILE=strict answers the least helpful way the gateway's spec allows)`
    : `Gateway: ${config.gateway!.baseUrl} (real gateway from PG_BASE_URL)`
}
Orders: ${demo.database.kind === 'postgres' ? `PostgreSQL at ${demo.database.where} (DATABASE_URL)` : `embedded PGlite in ${demo.database.where} (DATA_DIR; DATABASE_URL for a PostgreSQL)`}
Metrics: ${config.metrics ? `${demo.url}/metrics for Prometheus (${config.metrics.token ? 'bearer token of METRICS_TOKEN' : 'loopback clients only'})` : 'charts in the back office; METRICS=1 or METRICS_TOKEN serves /metrics to Prometheus'}
Back office: ${demo.url}/admin (${demo.adminPasswordGenerated ? `password: ${demo.adminPassword}` : 'password from ADMIN_PASSWORD'})

Cards to try (any future expiry, any CVV, 3-D Secure code 1234):
${tryCards.map((c) => `  ${spaced(c.number).padEnd(20)} ${c.behaviour}`).join('\n')}
All test cards: ${demo.url}/test-cards

Press Ctrl-C to stop.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping…');
  try {
    await demo.close();
  } catch (err) {
    console.error(`Stopping failed: ${(err as Error).message}`);
    process.exit(1);
  }
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
