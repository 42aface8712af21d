import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { migrate } from './migrations.js';
import type { Database } from './queryable.js';

export type { Database, Queryable } from './queryable.js';

/** Where the demo keeps its orders (config.ts reads it from the environment). */
export type DatabaseConfig = { kind: 'postgres'; url: string } | { kind: 'pglite'; dir: string };

/** A connection URL as it may be printed: the password replaced. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the DATABASE_URL given';
  }
}

/**
 * One process per PGlite folder: PGlite itself does not stop a second process from opening the
 * same files, and two writers would corrupt them. The lock file holds the owner's pid; a lock
 * whose process is gone (a crash, a kill -9) is taken over.
 */
function lockFolder(dir: string): () => void {
  const path = join(dir, 'shop.lock');
  for (let tries = 0; tries < 3; tries++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        throw new Error(
          `The demo's data folder ${dir} is in use by process ${owner} (another npm start?). Stop it, or set DATA_DIR to another folder, or DATABASE_URL to a PostgreSQL.`,
        );
      }
      unlinkSync(path); // left by a process that is gone
    }
  }
  throw new Error(`Could not lock the demo's data folder ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function openPglite(dir: string): Promise<Database> {
  mkdirSync(dir, { recursive: true });
  const unlock = lockFolder(dir);
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const pg = new PGlite(join(dir, 'pglite'));
    await pg.waitReady;
    const rows = async <T>(
      on: { query: (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }> },
      sql: string,
      params?: unknown[],
    ) => (await on.query(sql, params)).rows as T[];
    return {
      kind: 'pglite',
      where: dir,
      query: (sql, params) => rows(pg, sql, params),
      // PGlite has one connection: a transaction holds it, other queries wait their turn.
      transaction: (fn) =>
        pg.transaction((tx) => fn({ query: (sql, params) => rows(tx, sql, params) })),
      async close() {
        try {
          await pg.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

async function openPostgres(url: string): Promise<Database> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 10_000,
    // bigint (int8) columns hold cents: numbers, as PGlite answers them, not strings.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its server must not crash the shop; the next query reconnects.
  pool.on('error', () => undefined);
  const where = redactUrl(url);
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new Error(
      `Could not reach the PostgreSQL in DATABASE_URL (${where}): ${(err as Error).message}`,
    );
  }
  return {
    kind: 'postgres',
    where,
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({
          query: async (sql, params) => (await client.query(sql, params)).rows,
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  const db =
    config.kind === 'postgres' ? await openPostgres(config.url) : await openPglite(config.dir);
  try {
    await migrate(db);
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
  return db;
}
