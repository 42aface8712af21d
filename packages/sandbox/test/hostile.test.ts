import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { assertRefused, createBody, startHarness, type Harness } from './helpers/sandbox.js';

const POSTS = [
  '/pg/api/v2/payment/create',
  '/pg/api/v2/payment/REF/confirm',
  '/pg/api/v2/payment/3dsv2/REF/confirm',
  '/pg/api/v2/payment/REF/execute',
  '/pg/api/v2/payment/REF/refund',
  '/pg/api/v2/payment/refund/multiple',
  '/pg/api/v3/payment/create',
  '/pg/api/v3/payment/REF/execute',
  '/pg/api/v3/payment/REF/refund',
  '/pg/api/v3/payment/REF/edit',
  '/pg/api/v3/payment/REF/transfer/create',
  '/pg/api/v2/card/register',
  '/pg/api/v2/card/lookup',
  '/pg/api/v2/card/unregister',
  '/pg/api/v2/payment/create/eft',
  '/pg/api/v2/payment/list',
  '/pg/api/v2/transfer/create',
  '/pg/api/v2/transfer/cancel',
  '/pg/api/v2/subscription/edit',
  '/pg/api/v2/subscription/cancel',
  '/pg/api/v2/redirect/create',
];
const GETS = [
  '/pg/api/v2/payment/REF',
  '/pg/api/v2/payment/REF/execute',
  '/pg/api/v2/payment/REF/refund',
  '/pg/api/v2/payment/lookup/merchantReference/%E0%A4%A',
  '/pg/api/v3/payment/REF/execute',
  '/pg/api/v3/payment/REF/refund',
  '/pg/api/v3/payment/REF/transfer/cancel',
  '/pg/api/v2/redirect/REF',
];

describe('hostile input never gets a 500', () => {
  let h: Harness;
  let reference: string;
  before(async () => {
    h = await startHarness();
    reference = (await h.client.payments.create(createBody('4111111111111111') as never)).reference;
  });
  after(() => h.close());

  it('random JSON to every POST endpoint answers a JSON envelope, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...POSTS),
        fc.jsonValue({ maxDepth: 3 }),
        async (path, value) => {
          const res = await h.raw('POST', path.replace('REF', reference), JSON.stringify(value));
          assert.ok(res.status < 500, `${path} ${JSON.stringify(value)} -> ${res.status}`);
          assert.equal(typeof res.json.success, 'boolean');
        },
      ),
      { numRuns: 150 },
    );
  });

  it('shape-shifted create bodies (wrong types in every field) are refused with a message', async () => {
    const base = createBody('4111111111111111');
    const junk = fc.oneof(
      fc.constant(null),
      fc.integer(),
      fc.string(),
      fc.boolean(),
      fc.array(fc.integer()),
      fc.object(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          'creditCard',
          'transaction',
          'clientIp',
          'screenWidth',
          'supports3dsV2',
          'callbackUrl',
          'subscription',
        ),
        junk,
        async (field, value) => {
          const res = await h.raw(
            'POST',
            '/pg/api/v2/payment/create',
            JSON.stringify({ ...base, [field]: value }),
          );
          assert.ok(res.status < 500);
          if (!res.json.success)
            assert.ok(typeof res.json.message === 'string' && res.json.message.length > 0);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('GET endpoints with unknown or malformed references answer success false with fin025 / fin030', async () => {
    for (const path of GETS) {
      const res = await h.raw('GET', path.replace('REF', 'UNKNOWN'));
      assert.equal(res.status, 200, path);
      assert.equal(res.json.success, false, path);
      assert.ok(
        ['fin025', 'fin030'].includes(res.json.originalErrorCode),
        `${path} -> ${JSON.stringify(res.json)}`,
      );
    }
    const long = await h.raw('GET', `/pg/api/v2/payment/${'x'.repeat(300)}`);
    assertRefused(long, 'fin030');
  });
});
