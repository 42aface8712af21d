import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  REDIRECT_URLS,
  card,
  local,
  startAppOver,
  type TestApp,
} from '@pg-checkout/test-helpers/checkout-app';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { holdClock } from '@pg-checkout/test-helpers/clock';

// Issue 26: limits that cost nobody else. A client refused again and again must not use up what
// the instance keeps for everyone.

overAdapters((adapter) => {
  const startApp = startAppOver(adapter);
  const tally = (statuses: number[]) => {
    const counts: Record<number, number> = {};
    for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  };

  describe('refused requests do not count toward the per-instance ceiling', () => {
    it('one cart posting hundreds of times on one network leaves checkout open to another shopper', async () => {
      const app = await startApp({ rateLimit: { global: 60, windowMs: 3_600_000 } });
      try {
        const tester = { headers: { 'x-forwarded-for': '10.66.0.1', 'x-test-order': 'cart-66' } };
        const statuses: number[] = [];
        for (let i = 0; i < 300; i++)
          statuses.push(
            (await app.call('POST', '/payments', card('4000000000000002'), tester)).status,
          );
        const counts = tally(statuses);
        assert.ok((counts[429] ?? 0) >= 270, JSON.stringify(counts));
        assert.ok((counts[402] ?? 0) <= 20, JSON.stringify(counts));
        const shopper = await app.call('POST', '/payments', card('4111111111111111'), {
          headers: { 'x-forwarded-for': '10.77.0.1' },
        });
        assert.equal(shopper.status, 200, JSON.stringify(shopper.body));
        assert.equal(shopper.body.status, 'approved');
      } finally {
        await app.close();
      }
    });

    it('one client over its read budget leaves order reads to everyone else', async () => {
      // Reads get five times `global` per instance: 100 here; one client may read 20 times.
      const app = await startApp({ rateLimit: { global: 20, reads: 20, windowMs: 3_600_000 } });
      try {
        const reader = { headers: { 'x-forwarded-for': '10.66.0.2', 'x-test-order': 'cart-67' } };
        const statuses: number[] = [];
        for (let i = 0; i < 250; i++)
          statuses.push((await app.call('GET', '/order', undefined, reader)).status);
        assert.equal(tally(statuses)[429], 230, JSON.stringify(tally(statuses)));
        const other = await app.call('GET', '/order', undefined, {
          headers: { 'x-forwarded-for': '10.77.0.2', 'x-test-order': 'cart-68' },
        });
        assert.equal(other.status, 200, JSON.stringify(other.body));
        assert.equal(other.body.status, 'open');
      } finally {
        await app.close();
      }
    });
  });

  /** The bank's form post, from a client address of the test's choosing. */
  async function bankPostFrom(url: string, ip: string, form: Record<string, string>) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
      body: new URLSearchParams(form).toString(),
    });
    return { status: response.status, html: await response.text(), headers: response.headers };
  }

  /** Signed calls a bank's post can cost: the confirm and the lookups after it. */
  const proofCalls = (app: TestApp) =>
    app.gateway.calls.filter((c) => /^confirm3ds|lookup|reconcile/.test(c)).length;

  describe('the bank’s posts are limited before any gateway call', () => {
    it('150 junk cres to one callback cost a few gateway calls, not 300; the genuine proof still pays', async (t) => {
      // Held: 150 posts answered over more than the 1 s wait after a refused proof let more through.
      const clock = holdClock(t.mock);
      const app = await startApp({ rateLimit: {} });
      try {
        const shopper = { headers: { 'x-forwarded-for': '10.80.0.1' } };
        const created = await app.call('POST', '/payments', card('4000000000003055'), shopper);
        const { reference, threeDS } = created.body;
        const callback = local(app, String(app.gateway.lastCreate!.callbackUrl));
        const before = proofCalls(app);
        const junk = { cres: 'junk', threeDSSessionData: threeDS.threeDSSessionData };
        const pages = await Promise.all(
          Array.from({ length: 150 }, () => bankPostFrom(callback, '10.80.0.1', junk)),
        );
        const counts = tally(pages.map((p) => p.status));
        assert.ok((counts[429] ?? 0) >= 148, JSON.stringify(counts));
        assert.ok(proofCalls(app) - before <= 4, `${proofCalls(app) - before} gateway calls`);
        const limited = pages.find((p) => p.status === 429)!;
        assert.equal(limited.headers.get('retry-after'), '1');
        assert.match(limited.html, /Please wait a moment/);
        assert.doesNotMatch(limited.html, /3ds-complete/);
        assert.equal(app.gateway.txns.get(reference)!.status, 'THREE_D_SECURE');

        clock.tick(1_100);
        const genuine = await bankPostFrom(callback, '10.80.0.1', {
          cres: 'good-proof',
          threeDSSessionData: threeDS.threeDSSessionData,
        });
        assert.equal(genuine.status, 200);
        assert.match(genuine.html, /3ds-complete/);
        assert.equal(app.gateway.txns.get(reference)!.status, 'SETTLED');
      } finally {
        await app.close();
      }
    });

    it('a stranger flooding the shopper’s callback from another network never blocks the shopper’s own post', async (t) => {
      holdClock(t.mock);
      const app = await startApp({ rateLimit: {} });
      try {
        const created = await app.call('POST', '/payments', card('4000000000003055'), {
          headers: { 'x-forwarded-for': '10.81.0.1' },
        });
        const { reference, threeDS } = created.body;
        const callback = local(app, String(app.gateway.lastCreate!.callbackUrl));
        const junk = { cres: 'junk', threeDSSessionData: threeDS.threeDSSessionData };
        const flood = Array.from({ length: 60 }, () => bankPostFrom(callback, '10.91.0.1', junk));
        const genuine = await bankPostFrom(callback, '10.81.0.1', {
          cres: 'good-proof',
          threeDSSessionData: threeDS.threeDSSessionData,
        });
        const strangers = tally((await Promise.all(flood)).map((p) => p.status));
        assert.equal(genuine.status, 200, JSON.stringify(strangers));
        assert.equal(app.gateway.txns.get(reference)!.status, 'SETTLED');
        assert.ok((strangers[429] ?? 0) >= 55, JSON.stringify(strangers));
      } finally {
        await app.close();
      }
    });

    it('one client gets at most perIp posts through per window, whatever the session', async (t) => {
      const clock = holdClock(t.mock);
      const app = await startApp({ rateLimit: { perIp: 3, windowMs: 3_600_000 } });
      try {
        const callbacks: string[] = [];
        for (let i = 0; i < 3; i++) {
          await app.call('POST', '/payments', card('4000000000003055'), {
            headers: { 'x-forwarded-for': `10.82.0.${i + 1}` },
          });
          callbacks.push(local(app, String(app.gateway.lastCreate!.callbackUrl)));
        }
        const statuses = [];
        for (const callback of [...callbacks, ...callbacks])
          statuses.push((await bankPostFrom(callback, '10.92.0.1', { cres: 'junk' })).status);
        // Three sessions, two posts each: the second round is both too soon and over the budget.
        assert.deepEqual(statuses, [400, 400, 400, 429, 429, 429]);
        clock.tick(1_100);
        const over = await bankPostFrom(callbacks[0]!, '10.92.0.1', { cres: 'junk' });
        assert.equal(over.status, 429);
        assert.ok(Number(over.headers.get('retry-after')) > 1);
      } finally {
        await app.close();
      }
    });
  });

  describe('GET /order costs at most one gateway lookup per read', () => {
    it('a cart with 10 open redirect attempts: each read asks about one, and a paid one is found in turn', async () => {
      const app = await startApp({
        methods: ['card', 'eft'],
        redirectUrls: REDIRECT_URLS,
      });
      try {
        const cart = { headers: { 'x-test-order': 'cart-70' } };
        const references: string[] = [];
        for (let i = 0; i < 10; i++) {
          const eft = await app.call('POST', '/eft', {}, cart);
          assert.equal(eft.status, 200, JSON.stringify(eft.body));
          references.push(eft.body.reference);
        }
        const lookups = () => app.gateway.calls.filter((c) => /lookup|reconcile/i.test(c)).length;
        for (let i = 0; i < 12; i++) {
          const before = lookups();
          const read = await app.call('GET', '/order', undefined, cart);
          assert.equal(read.body.status, 'in_progress');
          assert.ok(lookups() - before <= 1, `read ${i + 1}: ${lookups() - before} lookups`);
        }
        // The shopper paid on the bank's page of the third attempt: each read asks about another one.
        app.gateway.txns.get(references[2]!)!.status = 'SETTLED';
        let paidAt = 0;
        for (let i = 1; i <= 10 && !paidAt; i++) {
          const before = lookups();
          const read = await app.call('GET', '/order', undefined, cart);
          assert.ok(lookups() - before <= 1);
          if (read.body.status === 'paid') paidAt = i;
          else assert.equal(read.body.status, 'in_progress');
        }
        assert.ok(paidAt >= 1 && paidAt <= 10, 'the paid attempt is found within one round');
      } finally {
        await app.close();
      }
    });
  });
});
