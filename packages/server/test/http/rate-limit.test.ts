import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { card } from '@pg-checkout/test-helpers/checkout-app';
import { header, overAdapters } from '@pg-checkout/test-helpers/adapters';
import { appForSuite } from '@pg-checkout/test-helpers/suite';
import { holdClock } from '@pg-checkout/test-helpers/clock';

overAdapters((adapter) => {
  let clock: ReturnType<typeof holdClock>;
  before(() => {
    clock = holdClock();
  });
  const app = appForSuite(adapter, {
    rateLimit: { windowMs: 60_000, perIp: 5, perShopper: 2 },
    savedCards: { shopperId: (req) => header(req, 'x-shopper') || undefined },
  });
  after(() => clock.release());

  describe('payment rate limits', () => {
    it('limits one shopper across IPs, then one IP, with Retry-After', async () => {
      const shopper = (ip: string) => ({
        headers: { 'x-shopper': 'carol', 'x-forwarded-for': ip },
      });
      assert.equal(
        (await app.call('POST', '/payments', card('4000000000000002'), shopper('10.0.0.1'))).status,
        402,
      );
      assert.equal(
        (await app.call('POST', '/payments', card('4000000000000002'), shopper('10.0.0.2'))).status,
        402,
      );
      const third = await app.call(
        'POST',
        '/payments',
        card('4000000000000002'),
        shopper('10.0.0.3'),
      );
      assert.equal(third.status, 429);
      assert.equal(third.body.code, 'rate_limited');
      assert.ok(Number(third.headers.get('retry-after')) >= 1);
      const ip = { headers: { 'x-forwarded-for': '10.9.9.9' } };
      for (let i = 0; i < 5; i++)
        assert.equal(
          (await app.call('POST', '/payments', card('4000000000000002'), ip)).status,
          402,
        );
      assert.equal((await app.call('POST', '/payments', card('4000000000000002'), ip)).status, 429);
      assert.equal(
        (
          await app.call('POST', '/payments', card('4000000000000002'), {
            headers: { 'x-forwarded-for': '10.9.9.10' },
          })
        ).status,
        402,
      );
    });
  });
});
