import { parseArgs } from 'node:util';
import { seededRandom } from './internal/random.js';
import { createSandbox } from './sandbox.js';

const USAGE = `Usage: pg-sandbox [options], the command of @pg-checkout/sandbox; from any project run
  npx @pg-checkout/sandbox [--port N] [--host H] [--public-url URL] [--failure-status 200|4xx]
                           [--profile default|strict] [--seed N] [--quiet]

  --port        port to listen on (default 8787; 0 picks a free one)
  --host        interface to bind (default 127.0.0.1)
  --public-url  base URL browsers use to reach the sandbox, when it differs
  --failure-status
                HTTP status of API failures: 200 (default, success false) or 4xx (400/404/409)
  --profile     default (the sandbox's helpful answers where the spec says "not shown") or strict
                (the least helpful the spec allows: a reused merchant reference makes a new
                transaction, an over-refund goes through, lists hold only exact matches, newest
                first, webhooks come late, twice, out of order or never); SANDBOX_PROFILE sets it
                too. GET /_sandbox/choices shows the active choices; the README's "Choices" table
                lists them.
  --seed        a whole number: hostile webhooks and faults are drawn from it, so a run reproduces
  --quiet       do not log requests

Credentials: PG_SANDBOX_TOKEN and PG_SANDBOX_SECRET override sandbox-token / sandbox-secret.`;

function fail(message: string): never {
  console.error(`pg-sandbox: ${message}\n\n${USAGE}`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      port: { type: 'string', short: 'p' },
      host: { type: 'string', short: 'H' },
      'public-url': { type: 'string' },
      'failure-status': { type: 'string' },
      profile: { type: 'string' },
      seed: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }).values;
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = args.port === undefined ? 8787 : Number(args.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be a number from 0 to 65535, got ${args.port}`);

const failureStatus = args['failure-status'] ?? '200';
if (failureStatus !== '200' && failureStatus !== '4xx')
  fail(`--failure-status must be 200 or 4xx, got ${failureStatus}`);

const profile = args.profile ?? process.env.SANDBOX_PROFILE ?? 'default';
if (profile !== 'default' && profile !== 'strict')
  fail(`--profile must be default or strict, got ${profile}`);

const seed = args.seed === undefined ? undefined : Number(args.seed);
if (seed !== undefined && !Number.isSafeInteger(seed))
  fail(`--seed must be a whole number, got ${args.seed}`);

const log = (line: string): void => console.log(`[${new Date().toISOString()}] ${line}`);
let sandbox;
try {
  sandbox = await createSandbox({
    port,
    host: args.host ?? '127.0.0.1',
    publicUrl: args['public-url'],
    failureStatus,
    profile,
    random: seed === undefined ? undefined : seededRandom(seed),
    logger: args.quiet
      ? { info() {}, warn: log, error: log }
      : { info: log, warn: log, error: log },
  });
} catch (err) {
  const e = err as NodeJS.ErrnoException;
  fail(
    e.code === 'EADDRINUSE'
      ? `port ${port} is already in use; pick another with --port`
      : e.message,
  );
}

/** `NAME=value` as dotenv reads it: quoted only when the value holds something a shell or dotenv would eat. */
const envLine = (name: string, value: string): string =>
  `${name}=${/^[\w.:/@+-]*$/.test(value) ? value : JSON.stringify(value)}`;

// Card numbers stay out of logs, test cards included: the banner points to the table instead.
console.log(`pg-sandbox listening on ${sandbox.url} (profile ${sandbox.profile}: ${sandbox.url}/_sandbox/choices)

Paste into your .env (PG_BASE_URL is scheme, host and port only: the client adds /pg/api/v2/...
itself, so a base URL that ends in /pg/api fails every request):

${envLine('PG_BASE_URL', sandbox.url)}
${envLine('PG_TOKEN', sandbox.token)}
${envLine('PG_SECRET', sandbox.secret)}

  dashboard:  ${sandbox.url}/
  test cards: ${sandbox.url}/_sandbox/test-cards (also in the README of @pg-checkout/sandbox, "Test cards")
Ctrl-C stops.`);

const stop = (): void => {
  void sandbox.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
