import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  postgresSkipReason,
  startPostgres,
  type Postgres,
} from '@pg-checkout/test-helpers/postgres';
import { BackOfficeActions, newFormKey } from '../src/back-office/actions.js';
import { openDatabase, type Database, type DatabaseConfig } from '../src/platform/database/db.js';
import { migrate, MIGRATIONS } from '../src/platform/database/migrations.js';
import { cartLines, OrderStore, orderIdOf } from '../src/shop/orders.js';

// The shop's SQL, run the same on embedded PGlite and on a real PostgreSQL (started here).

interface Backend {
  name: string;
  skip?: string;
  /** A fresh, empty database config. */
  fresh(): DatabaseConfig;
  cleanup(): Promise<void>;
}

const folders: string[] = [];
const pglite: Backend = {
  name: 'PGlite',
  fresh() {
    const dir = mkdtempSync(join(tmpdir(), 'pg-checkout-pglite-'));
    folders.push(dir);
    return { kind: 'pglite', dir };
  },
  async cleanup() {
    for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  },
};

let server: Postgres | undefined;
let databases = 0;
const skip = postgresSkipReason();
const postgres: Backend = {
  name: 'PostgreSQL',
  ...(skip ? { skip } : {}),
  fresh() {
    databases += 1;
    return { kind: 'postgres', url: server!.createDatabase(`shop_${process.pid}_${databases}`) };
  },
  async cleanup() {
    await server?.stop();
  },
};

for (const backend of [pglite, postgres]) {
  describe(`the shop's database on ${backend.name}`, { skip: backend.skip }, () => {
    let config: DatabaseConfig;
    let db: Database;
    let orders: OrderStore;

    before(async () => {
      if (backend === postgres) server = await startPostgres();
      config = backend.fresh();
      db = await openDatabase(config);
      orders = new OrderStore(db);
    });
    after(async () => {
      await db?.close();
      await backend.cleanup();
    });

    test('migrations: applied once, recorded, and a second run applies nothing', async () => {
      const ids = (
        await db.query<{ id: number }>('SELECT id FROM schema_migrations ORDER BY id')
      ).map((r) => r.id);
      assert.deepEqual(
        ids,
        MIGRATIONS.map((m) => m.id),
      );
      assert.deepEqual(await migrate(db), []);
    });

    test('two shops migrating one database at once: both start, the schema is made once', async () => {
      const other = backend.fresh();
      const [a, b] = await Promise.all([openDatabase(other), openDatabase(other)]).catch(
        async (err: unknown) => {
          // PGlite: one process per folder, so the second open is refused with a clear message.
          assert.equal(backend, pglite, String(err));
          assert.match(String(err), /in use by process/);
          return [undefined, undefined];
        },
      );
      if (a && b) {
        const [{ n }] = (await a.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM schema_migrations',
        )) as [{ n: number }];
        assert.equal(n, MIGRATIONS.length);
        await a.close();
        await b.close();
      }
    });

    test('an order: 128 random bits of id, its cart lines and total, open until paid', async () => {
      const { order, created } = await orders.setCart('session-a', cartLines(2));
      assert.equal(created, true);
      assert.match(order.id, /^[0-9a-f]{8}(-[0-9a-f]{8}){3}$/);
      assert.equal(order.reference, `order-${order.id}`);
      assert.equal(orderIdOf(order.reference), order.id);
      assert.deepEqual(
        order.lines.map((l) => l.quantity),
        [2],
      );
      assert.equal(order.total, 29_800);
      assert.equal(order.status, 'open');
      const again = await orders.setCart('session-a', cartLines(3));
      assert.equal(again.created, false, 'an open cart changes in place');
      assert.equal(again.order.id, order.id);
      assert.equal(again.order.total, 44_700);
    });

    test('a paid order is frozen: the same cart changes nothing, another cart starts a new order', async () => {
      const { order } = await orders.setCart('session-b', cartLines(1));
      assert.equal(
        await orders.markPaid(order.id, { reference: 'SB1', amount: 14_900, currency: 'ZAR' }),
        'paid',
      );
      const same = await orders.setCart('session-b', cartLines(1));
      assert.equal(same.order.id, order.id);
      assert.equal(same.order.status, 'paid');
      const changed = await orders.setCart('session-b', cartLines(2));
      assert.equal(changed.created, true);
      assert.notEqual(changed.order.id, order.id);
      const paid = await orders.byId(order.id);
      assert.equal(paid?.status, 'paid');
      assert.equal(paid?.total, 14_900, "the paid order's cart did not change");
      assert.deepEqual(paid?.paid && { ...paid.paid, at: undefined }, {
        reference: 'SB1',
        amount: 14_900,
        currency: 'ZAR',
        at: undefined,
      });
      assert.equal((await orders.current('session-b'))?.id, changed.order.id);
    });

    test('a second payment never replaces the first: it is reported to refund', async () => {
      const { order } = await orders.ensure('session-c', cartLines(1));
      const charged = { amount: 14_900, currency: 'ZAR' };
      assert.equal(await orders.markPaid(order.id, { reference: 'SB10', ...charged }), 'paid');
      assert.equal(await orders.markPaid(order.id, { reference: 'SB10', ...charged }), 'already');
      assert.equal(
        await orders.markPaid(order.id, { reference: 'SB11', ...charged }),
        'second-payment',
      );
      assert.equal((await orders.byId(order.id))?.paid?.reference, 'SB10');
      assert.equal(
        await orders.markPaid('00000000-0000-0000-0000-000000000000', {
          reference: 'SB12',
          ...charged,
        }),
        'no-such-order',
      );
    });

    test('a refunded order stays refunded; paying again starts a new order with its cart', async () => {
      const { order } = await orders.setCart('session-h', cartLines(2));
      await orders.markPaid(order.id, { reference: 'SB50', amount: 29_800, currency: 'ZAR' });
      assert.equal(await orders.markRefunded(order.id, 'SB51'), false, 'only by its own payment');
      assert.equal(await orders.markRefunded(order.id, 'SB50'), true);
      assert.equal((await orders.byId(order.id))?.status, 'refunded');
      const next = await orders.ensure('session-h', cartLines(1));
      assert.equal(next.created, true);
      assert.notEqual(next.order.id, order.id);
      assert.equal(next.order.lines[0]?.quantity, 2);
      assert.equal(next.order.status, 'open');
    });

    test('many requests of one session at once make one order', async () => {
      const made = await Promise.all(
        Array.from({ length: 8 }, () => orders.ensure('session-d', cartLines(1))),
      );
      assert.equal(new Set(made.map((m) => m.order.id)).size, 1);
      assert.equal(made.filter((m) => m.created).length, 1);
    });

    test("a payment's order is the shop's record of it; its status only moves forward", async () => {
      const { order } = await orders.ensure('session-e', cartLines(1));
      const payment = {
        reference: 'SB20',
        orderId: order.id,
        merchantReference: `${order.reference}-1`,
        amount: 14_900,
        currency: 'ZAR',
      };
      await orders.recordPayment({ ...payment, status: 'pending' });
      await orders.recordPayment({ ...payment, status: 'paid', gatewayStatus: 'AUTHORIZED' });
      await orders.recordPayment({ ...payment, status: 'pending' });
      const [known] = await orders.paymentsOf(order.id);
      assert.equal(known?.status, 'paid');
      assert.equal(known?.gatewayStatus, 'AUTHORIZED');
      assert.equal((await orders.byPayment('SB20'))?.id, order.id);
      // Another order claiming the same gateway payment does not move it.
      const other = await orders.ensure('session-f', cartLines(1));
      await orders.recordPayment({ ...payment, orderId: other.order.id, status: 'paid' });
      assert.equal((await orders.byPayment('SB20'))?.id, order.id);
      assert.equal(await orders.byPayment('SB404'), undefined);
    });

    test("a back-office form's key: the first submit claims it, a repeat sees what it did", async () => {
      const forms = new BackOfficeActions(db);
      const key = newFormKey();
      const request = {
        key,
        action: 'refund' as const,
        paymentReference: 'SB30',
        amount: 1_000,
        currency: 'ZAR',
      };
      const both = await Promise.all([forms.begin(request), forms.begin(request)]);
      assert.equal(
        both.filter((b) => b.first).length,
        1,
        'one of two concurrent submits claims it',
      );
      await forms.finish(key, 'done');
      const again = await forms.begin(request);
      assert.ok(!again.first && 'earlier' in again && again.earlier.state === 'done');
      const reused = await forms.begin({ ...request, amount: 2_000 });
      assert.ok(!reused.first && 'conflict' in reused, 'a key reused for another amount');
      assert.equal((await forms.refundedSoFar(['SB30'])).get('SB30'), 1_000);
    });

    test('everything survives closing and opening the database again', async () => {
      const { order } = await orders.setCart('session-g', cartLines(3));
      await orders.markPaid(order.id, { reference: 'SB40', amount: 44_700, currency: 'ZAR' });
      await db.close();
      db = await openDatabase(config);
      orders = new OrderStore(db);
      const reopened = await orders.current('session-g');
      assert.equal(reopened?.id, order.id);
      assert.equal(reopened?.status, 'paid');
      assert.equal(reopened?.paid?.reference, 'SB40');
      assert.equal(reopened?.total, 44_700);
    });
  });
}

test('PGlite: a second process on the same folder is refused, a lock left by a dead one is taken over', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pg-checkout-pglite-'));
  try {
    const first = await openDatabase({ kind: 'pglite', dir });
    await first.close();
    const { writeFileSync } = await import('node:fs');
    // A pid that is not running (the largest pid Linux hands out is below 2^22).
    writeFileSync(join(dir, 'shop.lock'), String(2 ** 22 + 1));
    const second = await openDatabase({ kind: 'pglite', dir });
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
