/* eslint-disable @typescript-eslint/no-explicit-any -- outcomes are read field by field */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CardDeclinedError,
  GatewayError,
  RequestRejectedError,
  ThreeDSecureFailedError,
} from '@pg-checkout/node';
import { hiddenFields, methodForm, postForm } from './helpers/forms.js';
import { assertRefused, createBody, startHarness, type Harness } from './helpers/sandbox.js';

const CALLBACK = 'http://127.0.0.1:9/callback';

describe('3-D Secure through the API and the access control pages (no browser)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  const createV2 = (number: string, extra: Record<string, unknown> = {}): Promise<any> =>
    h.client.payments.create(
      createBody(number, { supports3dsV2: true, callbackUrl: CALLBACK, ...extra }) as never,
    );

  async function runMethod(out: any): Promise<void> {
    const { action, data } = methodForm(out.threeDSecureV2.tdsMethodContent);
    const res = await postForm(action, { threeDSMethodData: data, browserScreen: '1280x800' });
    assert.equal(res.status, 200);
  }

  /** Posts creq to the ACS, answers the OTP and returns the cres the bank would post to callbackUrl. */
  async function challenge(v2: any, otp = '1234', action = 'submit'): Promise<string> {
    const page = await postForm(v2.acsUrl, { creq: v2.creq, threeDSSessionData: v2.sessionData });
    assert.equal(page.status, 200);
    assert.match(page.text, /name="otp"/);
    assert.match(page.text, /<label for="otp">/);
    const answer = await postForm(
      `${v2.acsUrl}/answer`,
      { ...hiddenFields(page.text), otp, action },
      'application/json',
    );
    const json = JSON.parse(answer.text) as {
      action: string;
      fields: { cres: string; threeDSSessionData: string };
    };
    assert.equal(json.action, CALLBACK);
    assert.equal(json.fields.threeDSSessionData, v2.sessionData);
    return json.fields.cres;
  }

  /** Runs the v1 access control page with the right code and returns the PaRes it posts to TermUrl. */
  async function v1Challenge(v1: any): Promise<string> {
    const page = await postForm(v1.acsUrl, {
      PaReq: v1.paReq,
      MD: v1.transactionId,
      TermUrl: 'http://127.0.0.1:9/term',
    });
    const answer = await postForm(`${v1.acsUrl}/answer`, {
      ...hiddenFields(page.text),
      otp: '1234',
      action: 'submit',
    });
    return hiddenFields(answer.text).PaRes!;
  }

  it('4000000000003220: frictionless at Step 2 when the method form arrived first', async () => {
    const out = await createV2('4000000000003220');
    assert.equal(out.kind, '3ds-v2-method');
    const v2 = out.threeDSecureV2;
    assert.equal(v2.acsUrl, null);
    assert.equal(v2.creq, null);
    assert.match(v2.tdsMethodContent, /<iframe[^>]+display:none/);
    assert.match(v2.tdsMethodContent, /<script>.*submit\(\)/);
    await runMethod(out);
    const record = await h.inspect(`/_sandbox/transactions/${out.reference}`);
    assert.equal(typeof record.threeDS.methodReceivedAt, 'number');
    const step2 = await h.client.payments.confirmStep2(out.reference, {
      txId: v2.txId,
      transactionId: v2.transactionId,
    });
    assert.equal(step2.kind, 'approved');
    const after = await h.inspect(`/_sandbox/transactions/${out.reference}`);
    assert.ok(after.threeDS.step2ConfirmAt >= after.threeDS.methodReceivedAt);
    assert.equal(after.status, 'AUTHORIZED');
  });

  it('4000000000003220: challenge when Step 2 comes before the method form; the challenge then completes', async () => {
    const out = await createV2('4000000000003220', { autoExecute: true });
    const v2 = out.threeDSecureV2;
    const step2: any = await h.client.payments.confirmStep2(out.reference, {
      txId: v2.txId,
      transactionId: v2.transactionId,
    });
    assert.equal(step2.kind, '3ds-v2-challenge');
    assert.equal(step2.threeDSecureV2.tdsMethodContent, null);
    assert.equal(step2.threeDSecureV2.txId, null);
    const cres = await challenge(step2.threeDSecureV2);
    const confirmed = await h.client.payments.confirm3dsV2(out.reference, cres);
    assert.equal(confirmed.kind, 'approved');
    assert.equal((await h.client.lookups.payment(out.reference)).status, 'SETTLED');
  });

  it('threeDSecure: true forces the challenge on the frictionless card', async () => {
    const out = await createV2('4000000000003220', { threeDSecure: true });
    await runMethod(out);
    const v2 = out.threeDSecureV2;
    const step2 = await h.client.payments.confirmStep2(out.reference, {
      txId: v2.txId,
      transactionId: v2.transactionId,
    });
    assert.equal(step2.kind, '3ds-v2-challenge');
  });

  it('threeDSecure: true on an approving card challenges at once', async () => {
    const out = await createV2('4111111111111111', { threeDSecure: true });
    assert.equal(out.kind, '3ds-v2-challenge');
  });

  it('4000000000003055 challenges at once; a wrong code fails with the nested error', async () => {
    const out = await createV2('4000000000003055');
    assert.equal(out.kind, '3ds-v2-challenge');
    const cres = await challenge(out.threeDSecureV2, '9999');
    const res = await h.raw(
      'POST',
      `/pg/api/v2/payment/${out.reference}/confirm`,
      JSON.stringify({ paRes: null, cres }),
    );
    assert.equal(res.json.success, false);
    assert.equal(res.json.code, 3);
    assert.equal(res.json.originalErrorCode, 'fin006');
    assert.deepEqual(res.json.error, { code: 3, message: res.json.message });
    assert.equal((await h.client.lookups.payment(out.reference)).status, 'FAILED');
  });

  it('Cancel on the challenge page fails authentication', async () => {
    const out = await createV2('4000000000003055');
    const cres = await challenge(out.threeDSecureV2, '', 'cancel');
    await assert.rejects(
      h.client.payments.confirm3dsV2(out.reference, cres),
      ThreeDSecureFailedError,
    );
  });

  it("a junk cres or another payment's genuine cres is refused with fin030 and changes nothing; the genuine one then confirms", async () => {
    const a = await createV2('4000000000003055');
    const b = await createV2('4000000000003055');
    const cresA = await challenge(a.threeDSecureV2);
    const cresB = await challenge(b.threeDSecureV2);
    const before = await h.inspect(`/_sandbox/transactions/${b.reference}`);
    for (const cres of [cresA, 'eyJ4IjoxfQ.abc', 'junk', `${cresB.split('.')[0]}.forged`]) {
      const res = await h.raw(
        'POST',
        `/pg/api/v2/payment/${b.reference}/confirm`,
        JSON.stringify({ paRes: null, cres }),
      );
      assertRefused(res, 'fin030');
      await assert.rejects(
        h.client.payments.confirm3dsV2(b.reference, cres),
        (err: unknown) =>
          err instanceof RequestRejectedError &&
          !(err instanceof CardDeclinedError) &&
          err.originalErrorCode === 'fin030',
      );
      const now = await h.inspect(`/_sandbox/transactions/${b.reference}`);
      assert.equal(now.status, 'THREE_D_SECURE');
      assert.deepEqual(now.threeDS, before.threeDS);
    }
    const swapped = await h.raw(
      'POST',
      `/pg/api/v2/payment/${b.reference}/confirm`,
      JSON.stringify({ paRes: null, cres: cresA }),
    );
    assert.match(swapped.json.message, /another payment/);
    assert.equal((await h.client.payments.confirm3dsV2(b.reference, cresB)).kind, 'approved');
    assert.equal((await h.client.payments.confirm3dsV2(a.reference, cresA)).kind, 'approved');
  });

  it('a junk paRes on a v1 payment is refused with fin030; the genuine PaRes then confirms', async () => {
    const out: any = await h.client.payments.create(createBody('4000000000003097') as never);
    const paRes = await v1Challenge(out.threeDSecure);
    const junk = await h.raw(
      'POST',
      `/pg/api/v2/payment/${out.reference}/confirm`,
      JSON.stringify({ paRes: 'not-a-pares' }),
    );
    assertRefused(junk, 'fin030');
    assert.equal(
      (await h.inspect(`/_sandbox/transactions/${out.reference}`)).status,
      'THREE_D_SECURE',
    );
    assert.equal((await h.client.payments.confirm3dsV1(out.reference, paRes)).kind, 'approved');
  });

  it('confirming a payment that is not waiting for 3-D Secure answers fin058 and changes nothing', async () => {
    const a = await createV2('4000000000003055');
    const cresA = await challenge(a.threeDSecureV2);
    assert.equal((await h.client.payments.confirm3dsV2(a.reference, cresA)).kind, 'approved');
    const twice = await h.raw(
      'POST',
      `/pg/api/v2/payment/${a.reference}/confirm`,
      JSON.stringify({ paRes: null, cres: cresA }),
    );
    assertRefused(twice, 'fin058');
    assert.match(twice.json.message, /not waiting for 3-D Secure/);
    const plain = await h.client.payments.create(createBody('4111111111111111') as never);
    const notThreeDS = await h.raw(
      'POST',
      `/pg/api/v2/payment/${plain.reference}/confirm`,
      JSON.stringify({ paRes: 'x' }),
    );
    assertRefused(notThreeDS, 'fin058');
    await assert.rejects(
      h.client.payments.confirm3dsV1(plain.reference, 'x'),
      (err: unknown) => err instanceof RequestRejectedError && err.originalErrorCode === 'fin058',
    );
    assert.equal((await h.client.lookups.payment(a.reference)).status, 'AUTHORIZED');
    assert.equal((await h.client.lookups.payment(plain.reference)).status, 'AUTHORIZED');
  });

  it('confirm before the shopper answered, and Step 2 on a payment not in the method step, are refused', async () => {
    const out = await createV2('4000000000003055');
    const early = await h.raw(
      'POST',
      `/pg/api/v2/payment/${out.reference}/confirm`,
      JSON.stringify({ paRes: null, cres: 'x' }),
    );
    assertRefused(early, 'fin030');
    const step2 = await h.raw(
      'POST',
      `/pg/api/v2/payment/3dsv2/${out.reference}/confirm`,
      JSON.stringify({ reference: out.reference, txId: 'a', transactionId: 'b' }),
    );
    assertRefused(step2, 'fin058');
    const unknown = await h.raw(
      'POST',
      '/pg/api/v2/payment/NO-SUCH-PAYMENT/confirm',
      JSON.stringify({ paRes: 'x' }),
    );
    assertRefused(unknown, 'fin025');
    assert.equal(
      (await h.inspect(`/_sandbox/transactions/${out.reference}`)).status,
      'THREE_D_SECURE',
    );
  });

  it('4000000000000127: authentication fails at Step 2 confirm (code 3, fin006)', async () => {
    const out = await createV2('4000000000000127');
    await runMethod(out);
    const v2 = out.threeDSecureV2;
    await assert.rejects(
      h.client.payments.confirmStep2(out.reference, {
        txId: v2.txId,
        transactionId: v2.transactionId,
      }),
      (err: unknown) =>
        err instanceof ThreeDSecureFailedError &&
        err.code === 3 &&
        err.originalErrorCode === 'fin006',
    );
  });

  it('4000000000000119: challenge passes, then authorization is declined (fin005)', async () => {
    const out = await createV2('4000000000000119');
    assert.equal(out.kind, '3ds-v2-challenge');
    const cres = await challenge(out.threeDSecureV2);
    await assert.rejects(
      h.client.payments.confirm3dsV2(out.reference, cres),
      (err: unknown) => err instanceof CardDeclinedError && err.originalErrorCode === 'fin005',
    );
  });

  it('4260890000160011 and 5286250003061012: method step then challenge; v1 without supports3dsV2', async () => {
    for (const number of ['4260890000160011', '5286250003061012']) {
      const out = await createV2(number);
      assert.equal(out.kind, '3ds-v2-method');
      await runMethod(out);
      const v2 = out.threeDSecureV2;
      const step2 = await h.client.payments.confirmStep2(out.reference, {
        txId: v2.txId,
        transactionId: v2.transactionId,
      });
      assert.equal(step2.kind, '3ds-v2-challenge');
      const v1 = await h.client.payments.create(createBody(number) as never);
      assert.equal(v1.kind, '3ds-v1');
    }
  });

  it('3-D Secure v1: the ACS posts PaRes and MD to TermUrl, confirm with paRes approves', async () => {
    const out: any = await h.client.payments.create(createBody('4000000000003097') as never);
    assert.equal(out.kind, '3ds-v1');
    const { acsUrl, transactionId, paReq } = out.threeDSecure;
    const termUrl = 'http://127.0.0.1:9/term';
    const page = await postForm(acsUrl, { PaReq: paReq, MD: transactionId, TermUrl: termUrl });
    assert.equal(page.status, 200);
    const answer = await postForm(`${acsUrl}/answer`, {
      ...hiddenFields(page.text),
      otp: 'test123',
      action: 'submit',
    });
    assert.match(answer.text, new RegExp(`action="${termUrl}"`));
    const fields = hiddenFields(answer.text);
    assert.equal(fields.MD, transactionId);
    assert.equal(
      (await h.client.payments.confirm3dsV1(out.reference, fields.PaRes!)).kind,
      'approved',
    );
    await assert.rejects(
      h.client.payments.confirm3dsV1(out.reference, fields.PaRes!),
      GatewayError,
    );
  });

  it('the access control pages refuse unknown or mismatched input with a 400 page', async () => {
    const out: any = await h.client.payments.create(createBody('4000000000003097') as never);
    const { acsUrl, transactionId, paReq } = out.threeDSecure;
    assert.equal(
      (await postForm(acsUrl, { PaReq: paReq, MD: 'other', TermUrl: 'http://x/' })).status,
      400,
    );
    assert.equal(
      (await postForm(acsUrl, { PaReq: paReq, MD: transactionId, TermUrl: 'javascript:alert(1)' }))
        .status,
      400,
    );
    assert.equal(
      (await postForm(`${h.sandbox.url}/_acs/v2/challenge`, { creq: 'garbage' })).status,
      400,
    );
    assert.equal(
      (await postForm(`${h.sandbox.url}/_acs/v2/method`, { threeDSMethodData: 'garbage' })).status,
      400,
    );
  });

  it('requires callbackUrl for a v2 card when supports3dsV2 is true', async () => {
    const body = createBody('4000000000003063', { supports3dsV2: true });
    const res = await h.raw('POST', '/pg/api/v2/payment/create', JSON.stringify(body));
    assertRefused(res, 'fin030');
    assert.match(res.json.message, /callbackUrl/);
  });
});
