import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import {
  adminSession,
  backOfficePage,
  formFields,
  ordersIn,
  submitForm,
  type AdminSession,
} from '@pg-checkout/test-helpers/admin';
import { assertNoCardData } from '../support/card-data.js';
import { notifyHash } from '../support/gateway.js';
import {
  postgresSkipReason,
  startPostgres,
  type Postgres,
} from '@pg-checkout/test-helpers/postgres';
import { startShop, type Shop } from '../support/shop.js';
import { Shopper } from '@pg-checkout/test-helpers/shopper';

// The demo shop as a merchant runs it: orders in a database (PGlite, and a real PostgreSQL), kept
// across restarts, paid once, refunded once. The gateway is a sandbox this test runs itself, so it
// keeps running while the shop stops and starts again (the shop talks to it as to a real gateway).

const PASSWORD = 'e2e orders password';
const CARD = '4111111111111111';
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

let sandbox: Sandbox;

before(async () => {
  sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
});
after(async () => {
  await sandbox?.close();
});

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

/** Every transaction the sandbox holds. */
async function gatewayTotal(): Promise<number> {
  const res = await fetch(`${sandbox.url}/_sandbox/transactions?limit=1`);
  return ((await res.json()) as { total: number }).total;
}

async function gatewayRecord(reference: string): Promise<{
  merchantReference: string;
  status: string;
  amount: number;
  refunded: number;
  settled: number;
}> {
  const res = await fetch(`${sandbox.url}/_sandbox/transactions/${reference}`);
  assert.equal(res.status, 200);
  return res.json();
}

/** Runs `count` calls of `fn`, `width` at a time. */
async function inParallel(count: number, width: number, fn: () => Promise<unknown>) {
  let started = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (started < count) {
        started += 1;
        await fn();
      }
    }),
  );
}

const skip = postgresSkipReason();
const backends: { name: string; skip?: string }[] = [
  { name: 'PGlite' },
  { name: 'PostgreSQL', ...(skip ? { skip } : {}) },
];

for (const backend of backends) {
  describe(`orders on ${backend.name}`, { skip: backend.skip }, () => {
    let postgres: Postgres | undefined;
    let dataDir: string | undefined;
    let shop: Shop;
    let admin: AdminSession;
    const current = () => shop;

    before(async () => {
      let database: Record<string, string>;
      if (backend.name === 'PostgreSQL') {
        postgres = await startPostgres();
        database = { DATABASE_URL: postgres.createDatabase('shop_e2e') };
      } else {
        dataDir = mkdtempSync(join(tmpdir(), 'pg-checkout-orders-'));
        database = { DATA_DIR: dataDir };
      }
      shop = await startShop({
        ...database,
        // The same port after a restart: the sandbox's notify URLs name it.
        PORT: String(await freePort()),
        PG_BASE_URL: sandbox.url,
        PG_TOKEN: sandbox.token,
        PG_SECRET: sandbox.secret,
        ADMIN_PASSWORD: PASSWORD,
        RATE_LIMIT_PER_IP: '1000',
      });
      admin = await adminSession(shop);
    });

    after(async () => {
      await shop?.stop();
      await postgres?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      assertNoCardData(shop?.logs ?? [], [CARD]);
    });

    test(`the database is ${backend.name}`, () => {
      const where =
        backend.name === 'PostgreSQL' ? /Orders: PostgreSQL at/ : /Orders: embedded PGlite in/;
      assert.ok(
        shop.logs.some((l) => where.test(l)),
        shop.logs.join('\n'),
      );
    });

    test('1: thousands of anonymous requests push no paid order out, make no order rows, and the paying browser is not charged again', async () => {
      const payer = new Shopper(current);
      await payer.setQuantity(2);
      const first = await payer.pay();
      assert.equal(first.status, 'approved', JSON.stringify(first));
      const before = ordersIn(await backOfficePage(shop.url, admin)).count;

      await inParallel(6_000, 16, async () => {
        const res = await fetch(`${shop.url}/checkout/config`);
        assert.equal(res.status, 200);
        await res.arrayBuffer();
      });
      // Pages and the cart widget, as an anonymous visitor loads them, make no order either.
      for (const path of ['/', '/api/cart', '/api/payment-result', '/checkout/cards']) {
        const res = await fetch(shop.url + path);
        assert.ok(res.status < 500, `${path}: ${res.status}`);
      }
      assert.equal(
        ordersIn(await backOfficePage(shop.url, admin)).count,
        before,
        'anonymous requests created no order rows',
      );

      assert.deepEqual(await payer.result(), { state: 'paid', amount: 29_800, currency: 'ZAR' });
      const transactions = await gatewayTotal();
      const again = await payer.pay();
      assert.equal(again.status, 'approved');
      assert.equal(again.reference, first.reference, 'answered with the first payment');
      assert.equal(await gatewayTotal(), transactions, 'nothing more was sent to the gateway');
    });

    test('2: a restart of the shop (the gateway still running) keeps every order and its paid state', async () => {
      const paid = new Shopper(current);
      await paid.setQuantity(3);
      const payment = await paid.pay();
      assert.equal(payment.status, 'approved');
      const open = new Shopper(current);
      const openCart = await open.setQuantity(2);
      const listed = ordersIn(await backOfficePage(shop.url, admin));

      await shop.stop();
      shop = await startShop(shop.env);
      admin = await adminSession(shop);

      assert.deepEqual(await paid.result(), { state: 'paid', amount: 44_700, currency: 'ZAR' });
      const transactions = await gatewayTotal();
      const again = await paid.pay();
      assert.equal(again.status, 'approved');
      assert.equal(again.reference, payment.reference, 'the paid order is answered, not charged');
      assert.equal(await gatewayTotal(), transactions, 'nothing more was sent to the gateway');
      const cart = await paid.cart();
      assert.equal(cart.status, 'paid');
      assert.equal(cart.quantity, 3);
      assert.deepEqual(await open.cart(), {
        product: 'Karoo single-origin beans, 1 kg',
        quantity: 2,
        amount: 29_800,
        currency: 'ZAR',
        status: 'open',
        order: openCart.order,
      });
      const relisted = ordersIn(await backOfficePage(shop.url, admin));
      assert.ok(listed.orders.some((o) => o.reference === openCart.order && o.status === 'open'));
      assert.ok(listed.orders.some((o) => o.reference === cart.order && o.status === 'paid'));
      assert.deepEqual(relisted, listed, 'every order, its cart, status and charge, as before');
    });

    test("3: an order's reference carries 128 random bits, and a cookie the shop never issued reaches no order", async () => {
      const payer = new Shopper(current);
      const payment = await payer.pay();
      assert.equal(payment.status, 'approved');
      const record = await gatewayRecord(payment.reference!);
      assert.match(record.merchantReference, /^order-[0-9a-f]{8}(-[0-9a-f]{8}){3}-1$/);
      const order = record.merchantReference.slice(0, -2);
      assert.equal((await payer.cart()).order, order);

      // Many new orders: every reference different, none the paid one's.
      const seen = new Set<string>([order]);
      for (let i = 0; i < 40; i++) {
        const cart = await new Shopper(current, {
          'x-forwarded-for': `198.51.100.${i + 1}`,
        }).setQuantity(1);
        assert.match(cart.order, /^order-[0-9a-f]{8}(-[0-9a-f]{8}){3}$/);
        assert.ok(!seen.has(cart.order), 'a new order never shares a reference');
        seen.add(cart.order);
      }

      // A cookie of the right shape the shop never signed, and the payer's with its signature altered.
      const [id, mac] = payer.cookie.slice('demo_cart='.length).split('.');
      const forged = `${randomBytes(16).toString('base64url')}.${mac}`;
      const tampered = `${id}.${mac!.slice(0, -2)}${mac!.endsWith('AA') ? 'BB' : 'AA'}`;
      for (const value of [forged, tampered]) {
        const stranger = new Shopper(current);
        stranger.cookie = `demo_cart=${value}`;
        assert.deepEqual(await stranger.result(), { state: 'not-found' });
        assert.equal((await stranger.cart()).status, 'open');
        assert.equal((await stranger.cart()).order, undefined);
        // Paying with it pays a new order of its own: charged, never "approved" for someone's order.
        const transactions = await gatewayTotal();
        const paid = await stranger.pay();
        assert.equal(paid.status, 'approved');
        assert.notEqual(paid.reference, payment.reference);
        assert.equal(await gatewayTotal(), transactions + 1);
        assert.notEqual((await stranger.cart()).order, order);
      }
    });

    test('4: a refund or capture form submitted twice refunds and captures once; the back office shows the refund once', async () => {
      const shopper = new Shopper(current);
      await shopper.setQuantity(3);
      const { reference } = await shopper.pay();
      assert.ok(reference);

      // Capture: a double click, then a retried post of the same form.
      const execute = formFields(await backOfficePage(shop.url, admin), reference, 'execute');
      const capture = () =>
        submitForm(shop.url, admin, `/admin/payments/${reference}/execute`, execute);
      assert.deepEqual(await Promise.all([capture(), capture()]), [303, 303]);
      assert.equal(await capture(), 303);
      assert.equal((await gatewayRecord(reference)).status, 'SETTLED');
      const captured = await backOfficePage(shop.url, admin);

      // A partial refund: a double click, then the same post once more.
      const refund = formFields(await backOfficePage(shop.url, admin), reference, 'refund');
      const send = (amount: string) =>
        submitForm(shop.url, admin, `/admin/payments/${reference}/refund`, { ...refund, amount });
      assert.deepEqual(await Promise.all([send('10,00'), send('10,00')]), [303, 303]);
      assert.equal(await send('10,00'), 303);
      const refunded = await backOfficePage(shop.url, admin);
      assert.equal((await gatewayRecord(reference)).refunded, 1_000, 'refunded once');
      assert.ok(refund.key, 'the refund form carries an idempotency key');
      assert.match(captured, /already executed; nothing more was done/);
      assert.match(refunded, /already sent/);

      // The rest ("blank: all") from a new form, sent twice.
      const rest = formFields(await backOfficePage(shop.url, admin), reference, 'refund');
      const all = () =>
        submitForm(shop.url, admin, `/admin/payments/${reference}/refund`, { ...rest, amount: '' });
      assert.deepEqual(await Promise.all([all(), all()]), [303, 303]);
      assert.equal(await all(), 303);
      const after = await gatewayRecord(reference);
      assert.equal(after.refunded, 44_700, 'the rest refunded once');
      assert.equal(after.status, 'REFUNDED');

      const html = await backOfficePage(shop.url, admin);
      // Two forms, two refunds: the payment's slots 1 and 2, each listed once.
      for (const slot of [1, 2]) {
        const rows = html.match(new RegExp(`>${reference}~r${slot}<`, 'g')) ?? [];
        assert.equal(rows.length, 1, `the refund in slot ${slot} is listed once`);
      }
      // A post without the form's key (an old page, a script) sends nothing.
      const before = await gatewayTotal();
      assert.equal(
        await submitForm(shop.url, admin, `/admin/payments/${reference}/refund`, {
          _csrf: refund._csrf!,
          amount: '1,00',
          currency: 'ZAR',
        }),
        303,
      );
      assert.equal(await gatewayTotal(), before);
    });

    test("5: the shop's webhook handler acts on the gateway's record and its own payments table, never on the payload", async () => {
      const payer = new Shopper(current);
      const { reference } = await payer.pay();
      assert.ok(reference);
      const victim = new Shopper(current);
      const { order: other } = await victim.setQuantity(1);
      // A genuine hash (it covers only the reference) on a payload naming another order's attempt.
      const res = await fetch(`${shop.url}/checkout/webhooks/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          success: true,
          amount: 14_900,
          currency: 'ZAR',
          paymentReference: reference,
          merchantReference: `${other}-1`,
          status: 'SETTLED',
          date: new Date().toISOString(),
          hash: notifyHash(reference, sandbox.secret),
        }),
      });
      assert.equal(res.status, 200);
      const listed = ordersIn(await backOfficePage(shop.url, admin)).orders;
      assert.equal(
        listed.find((o) => o.reference === other)?.status,
        'open',
        'the payload named it: not paid',
      );
      assert.equal((await victim.cart()).status, 'open');
      assert.equal((await payer.cart()).status, 'paid');
    });
  });
}

test("5: the READMEs' webhook examples never act on the payload's merchant reference", () => {
  for (const file of ['README.md', 'packages/express/README.md']) {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    for (const block of text.match(/```(?:ts|js|tsx)\n[\s\S]*?```/g) ?? []) {
      if (!block.includes('onWebhook')) continue;
      assert.doesNotMatch(block, /payload\.merchantReference/, `${file}: ${block}`);
      assert.match(block, /record/, `${file}: the example acts on event.record`);
    }
  }
});
