import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { adminSession, backOfficePage, ordersIn } from '@pg-checkout/test-helpers/admin';
import { completeChallenge, runMethodStep } from '@pg-checkout/test-helpers/bank';
import { formatAmount } from '../src/platform/html.js';
import { databaseBackends, startDemoWithOutage, type DemoWithOutage } from './helpers/outage.js';
import { Shopper } from '@pg-checkout/test-helpers/shopper';

// Issue 26, case 1: the shop's database is down while the shopper passes a 3-D Secure challenge.
// The gateway charges, the shopper is told "approved", and once the database is back the order
// must end up paid: the hook that failed during the outage is called again until it is taken. On a
// real PostgreSQL (stopped and started with pg_ctl) and on PGlite (its queries made to fail).

/** Polls `read` every 50 ms until it answers something, for at most `ms`. */
async function until<T>(what: string, read: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const backend of databaseBackends()) {
  describe(
    `case 1 on ${backend.name}: the orders database down while a payment is approved`,
    {
      skip: backend.skip,
    },
    () => {
      let sandbox: Sandbox;
      let shop: DemoWithOutage;

      before(async () => {
        sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
        shop = await startDemoWithOutage(
          backend,
          { baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret },
          'shop_delivery',
        );
      });
      after(async () => {
        await shop?.close();
        await sandbox?.close();
      });

      test('a v2 challenge passed during the outage: the order is paid at the gateway’s amount once the database is back', async () => {
        const { demo, outage } = shop;
        const shopper = new Shopper(demo.url);
        const pathOf = (url: string) => {
          const u = new URL(url, demo.url);
          return u.pathname + u.search;
        };
        // The answers are read field by field.
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const json = async (res: Promise<Response>): Promise<any> => (await res).json();
        const hookCalls = () => demo.logs.filter((l) => /\[shop\] payment \S+ completed/.test(l));
        const hookThrows = () => demo.logs.filter((l) => /hook threw/.test(l));

        const cart = await shopper.setQuantity(1);
        const created = await shopper.pay('4000000000003063');
        assert.equal(created.threeDS?.step, 'method', JSON.stringify(created));
        await runMethodStep(created.threeDS.methodUrl);
        const secret = { 'x-pg-client-secret': created.clientSecret as string };
        const step2 = await json(
          shopper.call(pathOf(created.threeDS.confirmUrl), {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: demo.url, ...secret },
            body: '{}',
          }),
        );
        assert.equal(step2.threeDS?.step, 'challenge', JSON.stringify(step2));

        outage.down();
        try {
          const page = await completeChallenge(step2.threeDS, '1234');
          assert.equal(page.status, 200);
          const status = await json(
            shopper.call(`/checkout/payments/${created.reference}`, { headers: secret }),
          );
          assert.equal(status.status, 'approved', 'the shopper is told the gateway’s answer');
          assert.ok(hookThrows().length >= 1, 'the hook ran during the outage and failed');
          // The database is still down when the first retry comes: it fails too, and is retried again.
          await until('the hook called again while the database is down', async () =>
            hookThrows().length >= 2 ? true : undefined,
          );
        } finally {
          outage.up();
        }

        // The shop's own records (GET /api/cart reads the database only): paid once a retry is taken.
        await until(
          'the order paid',
          async () => {
            const res = await shopper.call('/api/cart');
            if (res.status !== 200) return undefined; // PostgreSQL still starting
            return ((await res.json()) as { status: string }).status === 'paid' ? true : undefined;
          },
          15_000,
        ).catch((err: unknown) => {
          throw new Error(`${(err as Error).message}\n${demo.logs.slice(-20).join('\n')}`);
        });
        // Called until it resolved once: every call but the last threw.
        assert.equal(hookCalls().length, hookThrows().length + 1, demo.logs.join('\n'));

        // At the gateway's amount, and the order's read, the back office and the gateway agree.
        const record = (await (
          await fetch(`${sandbox.url}/_sandbox/transactions/${created.reference}`)
        ).json()) as { status: string; amount: number; currency: string; authorized: number };
        assert.equal(record.status, 'AUTHORIZED');
        assert.equal(record.authorized, cart.amount);
        const order = await json(shopper.call('/checkout/order'));
        assert.equal(order.status, 'paid', JSON.stringify(order));
        assert.equal(order.payment?.reference, created.reference);
        const admin = await adminSession(demo.shop);
        const row = ordersIn(await backOfficePage(demo.url, admin)).orders.find(
          (o) => o.reference === cart.order,
        );
        assert.equal(row?.status, 'paid');
        assert.ok(row!.row.includes(created.reference), row!.row);
        const charged = formatAmount(record.amount, record.currency).replace(/\s+/g, ' ');
        assert.ok(row!.row.includes(`${created.reference}</code> ${charged}`), row!.row);
      });
    },
  );
}
