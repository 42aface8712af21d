import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  postgresSkipReason,
  startPostgres,
  type Postgres,
} from '@pg-checkout/test-helpers/postgres';
import { openDatabase, type Database, type Queryable } from '../../src/platform/database/db.js';
import { startTestDemo, type TestDemo } from './demo.js';

/** The shop's database going away and coming back. */
export interface Outage {
  down(): void;
  up(): void;
}

/**
 * The database with every query, and every transaction's start, rejected while `down`, as after a
 * lost connection: PGlite runs in this process, so its outage is made at the shop's side of it.
 */
export function failing(db: Database): { db: Database; outage: Outage } {
  let down = false;
  const check = () => {
    if (down) throw new Error('Connection terminated unexpectedly (test outage)');
  };
  const guard = (on: Queryable): Queryable => ({
    query: async (sql, params) => {
      check();
      return on.query(sql, params);
    },
  });
  return {
    db: {
      kind: db.kind,
      where: db.where,
      ...guard(db),
      transaction: async (fn) => {
        check();
        return db.transaction((tx) => fn(guard(tx)));
      },
      close: () => db.close(),
    } as Database,
    outage: { down: () => void (down = true), up: () => void (down = false) },
  };
}

export interface Backend {
  name: 'PGlite' | 'PostgreSQL';
  /** Why this backend cannot run here (no PostgreSQL), or undefined. */
  skip?: string;
}

/** The two databases the shop runs on: embedded PGlite, and a real PostgreSQL when one can start. */
export function databaseBackends(): Backend[] {
  const skip = postgresSkipReason();
  return [{ name: 'PGlite' }, { name: 'PostgreSQL', ...(skip ? { skip } : {}) }];
}

export interface DemoWithOutage {
  demo: TestDemo;
  outage: Outage;
  close(): Promise<void>;
}

/**
 * The demo shop on `backend`, with an outage the test switches: a PostgreSQL server stopped and
 * started with pg_ctl (same port, same data), or PGlite wrapped by `failing`.
 */
export async function startDemoWithOutage(
  backend: Backend,
  gateway: { baseUrl: string; token: string; secret: string },
  databaseName: string,
): Promise<DemoWithOutage> {
  let postgres: Postgres | undefined;
  let dir: string | undefined;
  const cleanUp = async () => {
    await postgres?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (backend.name === 'PostgreSQL') {
      const pg = (postgres = await startPostgres());
      const demo = await startTestDemo(gateway, {
        kind: 'postgres',
        url: pg.createDatabase(databaseName),
      });
      const outage = { down: () => pg.pause(), up: () => pg.resume() };
      return { demo, outage, close: () => demo.close().finally(cleanUp) };
    }
    dir = mkdtempSync(join(tmpdir(), `pg-checkout-${databaseName}-`));
    const wrapped = failing(await openDatabase({ kind: 'pglite', dir }));
    // The demo closes the database it is given, started or not: PGlite open keeps the process alive.
    const demo = await startTestDemo(gateway, wrapped.db);
    return { demo, outage: wrapped.outage, close: () => demo.close().finally(cleanUp) };
  } catch (err) {
    await cleanUp();
    throw err;
  }
}
