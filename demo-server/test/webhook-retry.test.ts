import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createSandbox, type Sandbox } from '@pg-checkout/sandbox';
import { adminSession, backOfficePage, ordersIn } from '@pg-checkout/test-helpers/admin';
import { payOnSandboxPage } from '@pg-checkout/test-helpers/sandbox-payments';
import type { TestDemo } from './helpers/demo.js';
import {
  databaseBackends,
  startDemoWithOutage,
  type DemoWithOutage,
  type Outage,
} from './helpers/outage.js';
import { Shopper } from '@pg-checkout/test-helpers/shopper';

// Issue 26, case 2: the shop's database is down while a redirect (hosted page) payment completes. The
// gateway's notify webhook is answered 5xx; after the database is back the gateway's retry gets 200
// and the order is paid, though the hook that would have written the payment row failed. On a real
// PostgreSQL (stopped and started with pg_ctl) and on PGlite (its queries made to fail).

interface Delivery {
  state: string;
  attempts: { status?: number }[];
}

for (const backend of databaseBackends()) {
  describe(`case 2 on ${backend.name}`, { skip: backend.skip }, () => {
    let sandbox: Sandbox;
    let shop: DemoWithOutage;
    let demo: TestDemo;
    let outage: Outage;

    before(async () => {
      sandbox = await createSandbox({ port: 0, host: '127.0.0.1' });
      shop = await startDemoWithOutage(
        backend,
        { baseUrl: sandbox.url, token: sandbox.token, secret: sandbox.secret },
        'shop_webhook_retry',
      );
      ({ demo, outage } = shop);
    });
    after(async () => {
      await shop?.close();
      await sandbox?.close();
    });

    const deliveries = async (reference: string): Promise<Delivery[]> =>
      (
        (await (await fetch(`${sandbox.url}/_sandbox/transactions/${reference}`)).json()) as {
          webhooks: Delivery[];
        }
      ).webhooks;

    const cartStatus = async (shopper: Shopper): Promise<string> =>
      ((await (await shopper.call('/api/cart')).json()) as { status: string }).status;

    async function until<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
      for (let i = 0; i < 200; i++) {
        const value = await read();
        if (value !== undefined) return value;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`timed out waiting for ${what}`);
    }

    test('a notify webhook answered 5xx during the outage completes the order on the gateway’s retry', async () => {
      const shopper = new Shopper(demo.url);
      const { order } = await shopper.setQuantity(1);
      const started = (await (
        await shopper.call('/checkout/redirect', {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: demo.url },
          body: '{}',
        })
      ).json()) as { reference: string };
      assert.ok(started.reference, JSON.stringify(started));

      outage.down();
      try {
        const paid = await payOnSandboxPage(sandbox.url, started.reference);
        assert.ok(paid.status < 400, `the sandbox's payment page took the card (${paid.status})`);
        const first = await until('the first delivery', async () => {
          const [d] = await deliveries(started.reference);
          return d?.attempts[0]?.status === undefined ? undefined : d;
        });
        assert.ok(first.attempts[0]!.status! >= 500, `answered ${first.attempts[0]!.status}`);
      } finally {
        outage.up();
      }
      // Open, unless the middleware's own hook retry (a second later) already wrote it: both are right
      // here; what must hold is that the gateway's retry below leaves it paid.
      assert.match(await cartStatus(shopper), /^(open|paid)$/);

      // The gateway retries a minute later.
      await fetch(`${sandbox.url}/_sandbox/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advanceMs: 61_000 }),
      });
      const retried = await until('the retried delivery', async () => {
        const [d] = await deliveries(started.reference);
        return d?.state === 'delivered' || (d?.attempts.length ?? 0) > 1 ? d : undefined;
      });
      assert.equal(retried.attempts.at(-1)!.status, 200);
      assert.equal(retried.state, 'delivered');

      // The shop's own records (no gateway lookup from the result page): paid.
      assert.equal(await cartStatus(shopper), 'paid');
      const admin = await adminSession(demo.shop);
      const row = ordersIn(await backOfficePage(demo.url, admin)).orders.find(
        (o) => o.reference === order,
      );
      assert.equal(row?.status, 'paid');
      assert.match(row!.row, new RegExp(started.reference));
    });
  });
}
