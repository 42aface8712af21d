/* eslint-disable @typescript-eslint/no-explicit-any -- answers are read field by field */
/**
 * Where the sandbox once differed from the spec (issue #13): one test per row, each quoting the spec
 * line it follows, plus the HTTP status rule in both failure styles. A client written from the spec
 * alone: every check runs against the default profile, and against the strict profile wherever the
 * spec fixes the answer (a refusal the spec leaves to the gateway, fin094 or an over-refund's fin058,
 * is checked on the default profile only; choices.test.ts covers both answers).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SandboxProfile } from '../src/index.js';
import { DuplicateReferenceError, verifyPayoutWebhook } from '@pg-checkout/node';
import { payOnPage } from './helpers/forms.js';
import { startReceiver, waitFor } from './helpers/receiver.js';
import {
  assertRefused,
  createBody,
  ref,
  startHarness,
  YEAR,
  type Harness,
  type RawAnswer,
} from './helpers/sandbox.js';

const DAY = 24 * 60 * 60 * 1000;
const URLS = {
  success: 'http://shop.test/success',
  cancel: 'http://shop.test/cancel',
  error: 'http://shop.test/error',
};
const consumer = { name: 'Ann', surname: 'Lee', email: 'ann@example.test' };

/**
 * Every kind of refusal, as a request and the originalErrorCode and code it is answered with; on the
 * strict profile only those the spec fixes (it does not promise to refuse over-refunds or reused
 * merchant references).
 */
async function refusals(
  h: Harness,
  profile: SandboxProfile,
): Promise<[string, RawAnswer, string | undefined, number, number][]> {
  const authorized = await h.client.payments.create(createBody('4111111111111111') as never);
  const settled = await h.client.payments.create(
    createBody('4111111111111111', { autoExecute: true }) as never,
  );
  const today = await h.client.foreign.create({
    transaction: { reference: ref('v3'), currency: 'USD', amount: 1_000 },
    urls: URLS,
  } as never);
  await h.client.payments.execute(authorized.reference);
  const body = createBody('4111111111111111');
  delete body.clientIp;
  const dup = createBody('4111111111111111');
  dup.transaction.reference = (
    await h.inspect(`/_sandbox/transactions/${settled.reference}`)
  ).merchantReference;
  await h.inspect('/_sandbox/settings', { paymentPageEnabled: false });
  const noPage = await h.raw(
    'POST',
    '/pg/api/v3/payment/create',
    JSON.stringify({
      transaction: { reference: ref(), currency: 'USD', amount: 100 },
      urls: URLS,
    }),
  );
  await h.inspect('/_sandbox/settings', { paymentPageEnabled: true });
  const rows: [string, RawAnswer, string | undefined, number, number][] = [
    [
      'bad field',
      await h.raw('POST', '/pg/api/v2/payment/create', JSON.stringify(body)),
      'fin030',
      -1,
      400,
    ],
    [
      'unknown reference',
      await h.raw('GET', '/pg/api/v2/payment/NO-SUCH/execute'),
      'fin025',
      -1,
      404,
    ],
    [
      'executing twice',
      await h.raw('GET', `/pg/api/v2/payment/${authorized.reference}/execute`),
      'fin058',
      -1,
      409,
    ],
    [
      'code 3 for missing urls',
      await h.raw(
        'POST',
        '/pg/api/v3/payment/create',
        JSON.stringify({ transaction: { reference: ref(), currency: 'USD', amount: 100 } }),
      ),
      '',
      3,
      400,
    ],
    ['code 19', noPage, '', 19, 404],
    [
      'code 1 for late edits',
      await h.raw('POST', `/pg/api/v3/payment/${today.reference}/edit`, '{"description":"x"}'),
      undefined,
      1,
      409,
    ],
  ];
  if (profile === 'strict') return rows;
  const overRefund = await h.raw(
    'POST',
    `/pg/api/v2/payment/${settled.reference}/refund`,
    JSON.stringify({ transaction: { currency: 'ZAR', amount: 10_001 } }),
  );
  const reused = await h.raw('POST', '/pg/api/v2/payment/create', JSON.stringify(dup));
  return [
    ...rows,
    ['refunding more than is left', overRefund, 'fin058', -1, 409],
    ['reused merchant reference', reused, 'fin094', -1, 409],
  ];
}

for (const profile of ['default', 'strict'] as const satisfies readonly SandboxProfile[])
  describe(`the sandbox follows the spec where it once differed (${profile} profile)`, () => {
    let h: Harness;
    let hook: Awaited<ReturnType<typeof startReceiver>>;
    before(async () => {
      h = await startHarness({ profile });
      hook = await startReceiver();
    });
    after(async () => {
      await h.close();
      await hook.close();
    });

    it('HTTP status: "When the computed signature differs from X-Signature, the service answers HTTP 403" and "The merchant decides whether a request worked from this flag": every other failure is HTTP 200', async () => {
      for (const [what, res, original, code] of await refusals(h, profile)) {
        assert.equal(res.status, 200, what);
        assertRefused(res, original, code);
      }
      const wrongSecret = await h.raw('GET', '/pg/api/v2/util/validate', undefined, {
        secret: 'other',
      });
      assert.equal(wrongSecret.status, 403);
    });

    it('HTTP status, failureStatus 4xx: the same envelopes with 400, 404 and 409 (for clients that must survive both)', async () => {
      const legacy = await startHarness({ profile, failureStatus: '4xx' });
      try {
        for (const [what, res, original, code, status] of await refusals(legacy, profile)) {
          assert.equal(res.status, status, what);
          assertRefused(res, original, code, status);
        }
        const declined = await legacy.raw(
          'POST',
          '/pg/api/v2/payment/create',
          JSON.stringify(createBody('4000000000000002')),
        );
        assert.equal(declined.status, 200, 'a decline is an answer, not a refused request');
        assert.equal(declined.json.originalErrorCode, 'fin005');
      } finally {
        await legacy.close();
      }
      await assert.rejects(
        startHarness({ failureStatus: '500' as never }),
        /failureStatus` must be '200' or '4xx'/,
      );
    });

    it('every cents field: "Numbers with ... a fractional part in cents fields (100.00) ... are invalid JSON or wrong types"', async () => {
      const body = JSON.stringify(createBody('4111111111111111'));
      for (const literal of ['100.00', '10000.0', '1e4', '100.5']) {
        const text = body.replace('"amount":10000', `"amount":${literal}`);
        assert.notEqual(text, body);
        const res = await h.raw('POST', '/pg/api/v2/payment/create', text);
        assertRefused(res, 'fin030');
        assert.match(res.json.message, /transaction\.amount/);
      }
      const out = await h.client.payments.create(
        createBody('4111111111111111', { autoExecute: true }) as never,
      );
      for (const [path, text] of [
        [
          `/pg/api/v2/payment/${out.reference}/refund`,
          '{"transaction":{"currency":"ZAR","amount":100.00}}',
        ],
        [
          `/pg/api/v2/payment/${out.reference}/execute`,
          '{"transaction":{"currency":"ZAR","amount":0.0}}',
        ],
        [
          '/pg/api/v2/payment/refund/multiple',
          `{"synchronous":true,"transactions":[{"serviceReference":"${out.reference}","currency":"ZAR","amount":1.0E2}]}`,
        ],
        [
          '/pg/api/v3/payment/create',
          `{"transaction":{"reference":"${ref()}","currency":"USD","amount":5000.00},"urls":${JSON.stringify(URLS)}}`,
        ],
      ] as const) {
        const res = await h.raw('POST', path, text);
        assertRefused(res, 'fin030');
        assert.match(res.json.message, /amount/);
      }
      assert.equal((await h.inspect(`/_sandbox/transactions/${out.reference}`)).refunded, 0);
      // A fraction inside a string is not a cents field.
      const fine = createBody('4111111111111111', { clientIp: '10.0.0.1' });
      fine.transaction.source = 'cart {"amount":1.5}';
      const text = JSON.stringify(fine);
      assert.match(text, /\\"amount\\":1\.5/);
      assert.equal((await h.raw('POST', '/pg/api/v2/payment/create', text)).json.success, true);
    });

    it('v3 GET execute: "Create payment (other currencies) | authorize false or absent | funds are transferred at once; Execute is allowed but not required"', async () => {
      const out = await h.client.foreign.create({
        transaction: { reference: ref('v3'), currency: 'USD', amount: 4_000 },
        urls: URLS,
      } as never);
      const early = await h.raw('GET', `/pg/api/v3/payment/${out.reference}/execute`);
      assertRefused(early, 'fin058');
      await payOnPage(out.redirectUrl, '4111111111111111', YEAR);
      assert.equal((await h.client.lookups.payment(out.reference)).status, 'SETTLED');
      const res = await h.raw('GET', `/pg/api/v3/payment/${out.reference}/execute`);
      assert.equal(res.status, 200);
      assert.equal(res.json.success, true);
      assert.match(res.json.transactionDate, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      assert.equal((await h.client.foreign.execute(out.reference)).kind, 'executed');
      assert.equal(
        (await h.client.foreign.execute(out.reference, { currency: 'USD', amount: 4_000 })).kind,
        'executed',
      );
      // Funds that moved cannot be executed in part or reversed: that would be a refund.
      for (const amount of [1_000, 0]) {
        const partial = await h.raw(
          'POST',
          `/pg/api/v3/payment/${out.reference}/execute`,
          JSON.stringify({ transaction: { currency: 'USD', amount } }),
        );
        assertRefused(partial, 'fin058');
      }
      const record = await h.inspect(`/_sandbox/transactions/${out.reference}`);
      assert.equal(record.status, 'SETTLED');
      assert.equal(record.settled, 4_000);
    });

    it('v2/v3 execute and refund failures: "Failure: success false, transactionDate, message, originalErrorCode, code"', async () => {
      const out = await h.client.foreign.create({
        transaction: { reference: ref('v3'), currency: 'USD', amount: 2_000 },
        urls: URLS,
        authorize: true,
      } as never);
      await payOnPage(out.redirectUrl, '5555555555554444', YEAR);
      await h.client.foreign.execute(out.reference);
      const twice = await h.raw('GET', `/pg/api/v3/payment/${out.reference}/execute`);
      assertRefused(twice, 'fin058');
      assert.match(twice.json.transactionDate, /^\d{4}-\d{2}-\d{2}T/);
      await h.client.foreign.refund(out.reference);
      const nothingLeft = await h.raw('GET', `/pg/api/v3/payment/${out.reference}/refund`);
      assertRefused(nothingLeft, 'fin058');
      assert.match(nothingLeft.json.transactionDate, /^\d{4}-\d{2}-\d{2}T/);
      const v2 = await h.client.payments.create(
        createBody('4111111111111111', { autoExecute: true }) as never,
      );
      await h.client.payments.refund(v2.reference);
      assertRefused(await h.raw('GET', `/pg/api/v2/payment/${v2.reference}/refund`), 'fin058');
      assertRefused(await h.raw('GET', `/pg/api/v2/payment/${v2.reference}/execute`), 'fin058');
    });

    it('payout webhook: "amount (integer, negative for outgoing transfers)" and one "currency" per payout', async () => {
      const own = await startHarness({ profile });
      try {
        const card = await own.client.payments.create(
          createBody('4111111111111111', { autoExecute: true }) as never,
        );
        const usd = await own.client.foreign.create({
          transaction: { reference: ref('usd'), currency: 'USD', amount: 4_000 },
          urls: URLS,
        } as never);
        await payOnPage(usd.redirectUrl, '4111111111111111', YEAR);
        const transfer: any = await own.client.transfers.create({
          reference: ref('t'),
          fromMerchant: {
            merchantId: 1000,
            merchantReference: ref('from'),
            currency: 'ZAR',
            amount: 5_000,
          },
          toMerchants: [
            {
              merchantId: 1001,
              merchantReference: ref('to'),
              currency: 'ZAR',
              amount: 5_000,
              transferDate: new Date(Date.now() + DAY).toISOString(),
            },
          ],
        } as never);
        await own.advance(2 * DAY);
        const sent = transfer.transfers[0].reference;
        assert.equal((await own.client.lookups.payment(sent)).status, 'SETTLED');

        const trigger = await own.inspect('/_sandbox/payouts', { url: hook.url });
        assert.equal(trigger.payouts.length, 2);
        const payloads = await Promise.all(
          trigger.payouts.map(async (p: any) => {
            const got = await waitFor(() =>
              hook.received.find((r) => r.json.payoutId === p.payoutId),
            );
            return verifyPayoutWebhook(got.body, own.sandbox.secret) as any;
          }),
        );
        const zar = payloads.find((p) => p.currency === 'ZAR');
        const dollars = payloads.find((p) => p.currency === 'USD');
        for (const p of payloads) {
          assert.ok(p.transactions.every((t: any) => t.currency === p.currency));
          assert.equal(
            p.totalAmount,
            p.transactions.reduce((s: number, t: any) => s + t.amount, 0),
          );
          assert.equal(p.netTotal, p.totalAmount - p.totalFees);
        }
        assert.deepEqual(
          dollars.transactions.map((t: any) => [t.paymentReference, t.amount]),
          [[usd.reference, 4_000]],
        );
        const outgoing = zar.transactions.find((t: any) => t.paymentReference === sent);
        assert.equal(outgoing.amount, -5_000);
        assert.equal(outgoing.paymentMethod, 'TRANSFER');
        assert.equal(outgoing.netAmount, -5_000);
        assert.ok(
          zar.transactions.some(
            (t: any) => t.paymentReference === card.reference && t.amount === 10_000,
          ),
        );
        assert.equal(zar.totalAmount, 10_000 - 5_000);

        // The receiver's payout has the same transfer as incoming; nothing is paid out twice.
        const affiliate = await own.inspect('/_sandbox/payouts', {
          url: hook.url,
          merchantId: 1001,
        });
        const row = affiliate.payload.transactions.find((t: any) => t.paymentReference === sent);
        assert.equal(row.amount, 5_000);
        const again = await own.inspect('/_sandbox/payouts', { url: hook.url, currency: 'ZAR' });
        assert.deepEqual(again.payload.transactions, []);
      } finally {
        await own.close();
      }
    });

    it('redirect create (ZAR): consumer is not marked required, only "consumer.consumerAddress | required for non-ZAR currencies"', async () => {
      const out = await h.client.redirects.create({
        transaction: { reference: ref('r'), currency: 'ZAR', amount: 2_500 },
        urls: URLS,
      } as never);
      assert.match(out.redirectUrl, /\/pay\//);
      const usd = await h.raw(
        'POST',
        '/pg/api/v2/redirect/create',
        JSON.stringify({
          transaction: { reference: ref('r'), currency: 'USD', amount: 2_500 },
          urls: URLS,
        }),
      );
      assertRefused(usd, 'fin030');
      assert.match(usd.json.message, /consumer\.consumerAddress/);
    });

    it('v2 transfer create: the answer carries "fromMerchantId: integer", so the caller is the from merchant and fromMerchant.merchantId may be left out', async () => {
      const res = await h.raw(
        'POST',
        '/pg/api/v2/transfer/create',
        JSON.stringify({
          reference: ref('t'),
          fromMerchant: { merchantReference: ref('from'), currency: 'ZAR', amount: 700 },
          toMerchants: [
            {
              merchantId: 1002,
              merchantReference: ref('to'),
              currency: 'ZAR',
              amount: 700,
              transferDate: new Date(Date.now() + 2 * DAY).toISOString(),
            },
          ],
        }),
      );
      assert.equal(res.json.success, true, JSON.stringify(res.json));
      assert.equal(res.json.fromMerchantId, 1000);
      assert.equal(res.json.transfers[0].merchantId, 1002);
    });

    it('v3 create and redirect create: "pax | number | ... default 1" and "affiliateMerchantId | integer | optional" have no minimum: 0 means not given', async () => {
      const v3 = await h.client.foreign.create({
        transaction: { reference: ref('pax'), currency: 'USD', amount: 1_000 },
        urls: URLS,
      } as never);
      const raw = await h.raw(
        'POST',
        '/pg/api/v3/payment/create',
        JSON.stringify({
          transaction: { reference: ref('pax'), currency: 'USD', amount: 1_000 },
          urls: URLS,
          pax: 0,
          affiliateMerchantId: 0,
        }),
      );
      assert.equal(raw.json.success, true, JSON.stringify(raw.json));
      const redirect = await h.raw(
        'POST',
        '/pg/api/v2/redirect/create',
        JSON.stringify({
          transaction: { reference: ref('pax'), currency: 'ZAR', amount: 1_000 },
          consumer,
          urls: URLS,
          pax: 0,
          affiliateMerchantId: 0,
        }),
      );
      assert.equal(redirect.json.success, true, JSON.stringify(redirect.json));
      for (const reference of [raw.json.reference, redirect.json.reference]) {
        const record = await h.inspect(`/_sandbox/transactions/${reference}`);
        assert.equal(record.hosted.pax, 1);
        assert.equal(record.merchantId, 1000);
      }
      assert.equal((await h.inspect(`/_sandbox/transactions/${v3.reference}`)).hosted.pax, 1);
      for (const extra of [{ pax: -1 }, { affiliateMerchantId: -1 }, { affiliateMerchantId: 7 }]) {
        const res = await h.raw(
          'POST',
          '/pg/api/v3/payment/create',
          JSON.stringify({
            transaction: { reference: ref('pax'), currency: 'USD', amount: 1_000 },
            urls: URLS,
            ...extra,
          }),
        );
        assertRefused(res, 'fin030');
      }
    });

    it('list: "all given filters apply together" and "paymentReference | the service\'s reference": the list by a payment\'s reference holds that transaction alone, not its refunds', async () => {
      const out = await h.client.payments.create(
        createBody('4111111111111111', { autoExecute: true }) as never,
      );
      await h.client.payments.refund(out.reference, { currency: 'ZAR', amount: 2_500 });
      const manual = await h.client.payments.refund(out.reference, {
        currency: 'ZAR',
        amount: 1_007,
      });
      assert.equal(manual.kind, 'pending');
      const list = await h.client.lookups.list({ paymentReference: out.reference });
      assert.deepEqual(
        list.map((t) => [t.reference, t.amount]),
        [[out.reference, 10_000]],
      );
      const both = await h.client.lookups.list({
        paymentReference: out.reference,
        amount: -2_500,
      });
      assert.deepEqual(both, [], 'every given filter applies');
    });

    // The spec does not say a reused merchant reference is refused: the strict profile makes a new
    // transaction (choices.test.ts), so this check is the default profile's.
    if (profile === 'default')
      it('one merchant reference is one transaction: v2 create, v3 create, redirect create and EFT create refuse a used one with fin094, and the lookup keeps finding the first', async () => {
        const merchantRef = ref('once');
        const first = await h.client.redirects.createEft({
          transaction: { reference: merchantRef, currency: 'ZAR', amount: 900 },
          consumer,
          urls: URLS,
        } as never);
        const attempts: [string, unknown][] = [
          [
            '/pg/api/v2/payment/create',
            {
              ...createBody('4111111111111111'),
              transaction: { reference: merchantRef, currency: 'ZAR', amount: 900 },
            },
          ],
          [
            '/pg/api/v3/payment/create',
            { transaction: { reference: merchantRef, currency: 'USD', amount: 900 }, urls: URLS },
          ],
          [
            '/pg/api/v2/redirect/create',
            {
              transaction: { reference: merchantRef, currency: 'ZAR', amount: 900 },
              consumer,
              urls: URLS,
            },
          ],
          [
            '/pg/api/v2/payment/create/eft',
            {
              transaction: { reference: merchantRef, currency: 'ZAR', amount: 900 },
              consumer,
              urls: URLS,
            },
          ],
        ];
        for (const [path, body] of attempts) {
          const res = await h.raw('POST', path, JSON.stringify(body));
          assertRefused(res, 'fin094');
          assert.equal(res.json.reference, first.reference, path);
        }
        await assert.rejects(
          h.client.foreign.create(attempts[1]![1] as never),
          (err: unknown) =>
            err instanceof DuplicateReferenceError && err.reference === first.reference,
        );
        assert.equal(
          (await h.client.lookups.byMerchantReference(merchantRef)).reference,
          first.reference,
        );
        const all = await h.inspect(`/_sandbox/transactions?merchantReference=${merchantRef}`);
        assert.equal(all.transactions.length, 1);
      });
  });
