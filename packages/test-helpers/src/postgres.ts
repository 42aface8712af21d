import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway PostgreSQL server for the tests that run the shop's SQL on a real PostgreSQL as well as
 * on PGlite: Debian's `postgresql` package (15, or the newest installed), initdb'd in a temporary
 * folder, listening on 127.0.0.1 and a free port only, trust authentication, stopped and deleted by
 * `stop()`.
 */
export interface Postgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`. */
  url: string;
  /** Makes a new, empty database and answers its URL. */
  createDatabase(name: string): string;
  /** Stops the server, keeping its data: the shop's database is down until `resume()`. */
  pause(): void;
  /** Starts the paused server again on the same port, with the same data. */
  resume(): void;
  stop(): Promise<void>;
}

function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  const chosen = versions.includes('15') ? '15' : versions[0];
  return chosen ? join(root, chosen, 'bin') : undefined;
}

function postgresUid(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

/** Why no PostgreSQL can be started here, or undefined when it can. */
export function whyNoPostgres(): string | undefined {
  if (process.getuid?.() !== 0)
    return 'the tests start PostgreSQL as the postgres user, which needs root';
  if (!binDir())
    return 'no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb): apt-get install postgresql';
  if (!postgresUid()) return 'no postgres user (apt-get install postgresql makes it)';
  return undefined;
}

/**
 * The skip reason for a PostgreSQL half of a test file: undefined when PostgreSQL can run. Outside
 * CI a missing PostgreSQL skips, loudly; under CI=true it throws, so CI fails instead of passing
 * with half its database tests unrun.
 */
export function postgresSkipReason(): string | undefined {
  const why = whyNoPostgres();
  if (!why) return undefined;
  if (process.env.CI === 'true')
    throw new Error(`CI must run the PostgreSQL tests, but ${why} (.ci/run installs postgresql)`);
  const message = `PostgreSQL tests SKIPPED: ${why}`;
  console.warn(`\n${'!'.repeat(message.length)}\n${message}\n${'!'.repeat(message.length)}\n`);
  return message;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function asPostgres(command: string): void {
  execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', command], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 60_000,
  });
}

/** Starts a fresh PostgreSQL server (callers check `whyNoPostgres()` first). */
export async function startPostgres(): Promise<Postgres> {
  const bin = binDir()!;
  const owner = postgresUid()!;
  const dir = mkdtempSync(join(tmpdir(), 'pg-checkout-pg-'));
  chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  asPostgres(`${quote(join(bin, 'initdb'))} -D ${quote(data)} -A trust -U postgres --no-sync`);
  const start = () =>
    asPostgres(
      `${quote(join(bin, 'pg_ctl'))} -D ${quote(data)} -l ${quote(join(dir, 'server.log'))} -w -t 60 ` +
        `-o ${quote(`-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off`)} start`,
    );
  const halt = () => asPostgres(`${quote(join(bin, 'pg_ctl'))} -D ${quote(data)} -m fast -w stop`);
  start();
  let stopped = false;
  let paused = false;
  const base = `postgres://postgres@127.0.0.1:${port}`;
  return {
    url: `${base}/postgres`,
    createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`bad database name ${name}`);
      execFileSync(
        join(bin, 'createdb'),
        ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      return `${base}/${name}`;
    },
    pause() {
      halt();
      paused = true;
    },
    resume() {
      start();
      paused = false;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        if (!paused) halt();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
