import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { card, startApp } from './helpers/app.js';

// Issue 26: limits that cost nobody else. A client refused again and again must not use up what
// the instance keeps for everyone.

const tally = (statuses: number[]) => {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};

describe('refused requests do not count toward the per-instance ceiling', () => {
  it('one cart posting hundreds of times on one network leaves checkout open to another shopper', async () => {
    const app = await startApp({ rateLimit: { global: 60 } });
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
    const app = await startApp({ rateLimit: { global: 20, reads: 20 } });
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
