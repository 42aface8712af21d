import type { Queryable } from './queryable.js';

/**
 * The schema, one step per release, never edited once shipped: a database at step n gets steps
 * n+1… in order. The same statements run on PGlite and on PostgreSQL.
 */
export const MIGRATIONS: readonly { id: number; name: string; statements: readonly string[] }[] = [
  {
    id: 1,
    name: 'orders, their payments, back-office actions',
    statements: [
      // Shop-wide secrets made once (the key that signs the shopper's session cookie).
      `CREATE TABLE shop_settings (
        name text PRIMARY KEY,
        value text NOT NULL
      )`,
      // One row per order. The id is 128 random bits (ids.ts); the gateway sees `order-<id>`, and attempt n of
      // the order is `order-<id>-n`. `session` is a hash of the browser session that owns the order.
      `CREATE TABLE orders (
        id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{8}(-[0-9a-f]{8}){3}$'),
        session text NOT NULL,
        lines jsonb NOT NULL,
        total bigint NOT NULL CHECK (total > 0),
        currency text NOT NULL,
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'refunded')),
        paid_reference text,
        paid_amount bigint,
        paid_currency text,
        paid_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((status = 'open') = (paid_reference IS NULL))
      )`,
      `CREATE INDEX orders_by_session ON orders (session, created_at DESC)`,
      `CREATE INDEX orders_by_created ON orders (created_at DESC)`,
      // Every gateway payment the shop learnt of (from the middleware's hooks, the gateway's
      // lookups and its webhooks), by the gateway's reference: how a webhook finds its order.
      `CREATE TABLE payments (
        reference text PRIMARY KEY,
        order_id text NOT NULL REFERENCES orders (id),
        merchant_reference text NOT NULL,
        amount bigint NOT NULL,
        currency text NOT NULL,
        status text NOT NULL CHECK (status IN ('paid', 'failed', 'pending', 'refunded')),
        gateway_status text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX payments_by_order ON payments (order_id)`,
      `CREATE INDEX payments_by_merchant_reference ON payments (merchant_reference)`,
      // One row per back-office form submitted: its idempotency key, what it asked and how it ended.
      `CREATE TABLE back_office_actions (
        key text PRIMARY KEY CHECK (key ~ '^[0-9a-f]{8}(-[0-9a-f]{8}){3}$'),
        action text NOT NULL CHECK (action IN ('execute', 'refund')),
        payment_reference text NOT NULL,
        amount bigint,
        currency text,
        state text NOT NULL CHECK (state IN ('sent', 'done', 'pending', 'failed')),
        result text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX back_office_actions_by_payment ON back_office_actions (payment_reference)`,
    ],
  },
  {
    id: 2,
    name: 'orders charged for another total than they have',
    statements: [
      // `changed`: the gateway charged the order, but not its total at the time (the cart changed
      // while the payment was under way). Not paid: the shop refunds the charge or collects the rest.
      `ALTER TABLE orders DROP CONSTRAINT orders_status_check`,
      `ALTER TABLE orders ADD CONSTRAINT orders_status_check
        CHECK (status IN ('open', 'paid', 'changed', 'refunded'))`,
    ],
  },
];

/** An arbitrary constant: the advisory lock that lets one instance at a time migrate. */
const MIGRATION_LOCK = 7_301_021;

/**
 * Applies the steps the database lacks, all in one transaction under an advisory lock, so two
 * shops starting at once on one PostgreSQL migrate once. Answers the ids it applied.
 */
export async function migrate(db: {
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set(
      (await tx.query<{ id: number }>('SELECT id FROM schema_migrations')).map((r) => r.id),
    );
    const applied: number[] = [];
    for (const step of MIGRATIONS) {
      if (done.has(step.id)) continue;
      for (const statement of step.statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [
        step.id,
        step.name,
      ]);
      applied.push(step.id);
    }
    return applied;
  });
}
