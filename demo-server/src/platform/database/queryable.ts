/**
 * What the shop's code sends SQL to. Its own file, below both: the migrations run on a Queryable, and
 * db.ts, which opens the database, runs the migrations.
 */

/** Something SQL can be sent to: the database, or one transaction on it. */
export interface Queryable {
  /** One statement with `$1`-style parameters; the rows it answered. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** The shop's database: the same SQL on embedded PGlite and on a PostgreSQL server. */
export interface Database extends Queryable {
  kind: 'pglite' | 'postgres';
  /** Where the data is, for the banner and the logs (never a password). */
  where: string;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
