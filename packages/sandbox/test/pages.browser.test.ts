/* eslint-disable @typescript-eslint/no-explicit-any -- outcomes are read field by field */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '@pg-checkout/test-helpers/browser';
import { framePostPage, startMerchant } from './helpers/merchant.js';
import { waitFor } from './helpers/receiver.js';
import { createBody, ref, startHarness, YEAR, type Harness } from './helpers/sandbox.js';

describe('3-D Secure and hosted pages in headless Chromium', () => {
  let h: Harness;
  let browser: Browser;
  let merchant: Awaited<ReturnType<typeof startMerchant>>;
  let page: Page;
  before(async () => {
    h = await startHarness();
    merchant = await startMerchant();
    browser = await launchChromium();
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await merchant?.close();
    await h?.close();
  });

  async function answerChallenge(otp: string, button = 'Submit'): Promise<void> {
    const frame = page.frameLocator('iframe[name="challenge"]');
    await frame.getByLabel('One-time code').fill(otp);
    await frame.getByRole('button', { name: button }).click();
  }

  it('v2: the method fragment rendered unmodified reaches the method URL; the challenge posts cres to callbackUrl', async () => {
    const callbackUrl = `${merchant.url}/callback`;
    const out: any = await h.client.payments.create(
      createBody('4000000000003220', { supports3dsV2: true, callbackUrl }) as never,
    );
    merchant.pages.set(
      '/method',
      `<!doctype html><title>method</title><div id="m">${out.threeDSecureV2.tdsMethodContent}</div>`,
    );
    await page.goto(`${merchant.url}/method`);
    let record: any;
    for (let i = 0; i < 100; i++) {
      record = await h.inspect(`/_sandbox/transactions/${out.reference}`);
      if (record.threeDS.methodReceivedAt) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(typeof record.threeDS.methodReceivedAt, 'number');
    const step2 = await h.client.payments.confirmStep2(out.reference, {
      txId: out.threeDSecureV2.txId,
      transactionId: out.threeDSecureV2.transactionId,
    });
    assert.equal(step2.kind, 'approved');

    const challenged: any = await h.client.payments.create(
      createBody('4000000000003063', { supports3dsV2: true, callbackUrl }) as never,
    );
    const s2: any = await h.client.payments.confirmStep2(challenged.reference, {
      txId: challenged.threeDSecureV2.txId,
      transactionId: challenged.threeDSecureV2.transactionId,
    });
    const v2 = s2.threeDSecureV2;
    merchant.pages.set(
      '/challenge',
      framePostPage(v2.acsUrl, { creq: v2.creq, threeDSSessionData: v2.sessionData }),
    );
    await page.goto(`${merchant.url}/challenge`);
    await answerChallenge('1234');
    const posted = await waitFor(() => merchant.posts.find((p) => p.path === '/callback'));
    assert.equal(posted.fields.threeDSSessionData, v2.sessionData);
    assert.equal(
      (await h.client.payments.confirm3dsV2(challenged.reference, posted.fields.cres!)).kind,
      'approved',
    );
  });

  it('v2: Cancel on the challenge page posts a failing cres', async () => {
    merchant.posts.length = 0;
    const callbackUrl = `${merchant.url}/callback-cancel`;
    const out: any = await h.client.payments.create(
      createBody('4000000000003055', { supports3dsV2: true, callbackUrl }) as never,
    );
    const v2 = out.threeDSecureV2;
    merchant.pages.set(
      '/challenge2',
      framePostPage(v2.acsUrl, { creq: v2.creq, threeDSSessionData: v2.sessionData }),
    );
    await page.goto(`${merchant.url}/challenge2`);
    await page
      .frameLocator('iframe[name="challenge"]')
      .getByRole('button', { name: 'Cancel' })
      .click();
    const posted = await waitFor(() => merchant.posts.find((p) => p.path === '/callback-cancel'));
    const res = await h.raw(
      'POST',
      `/pg/api/v2/payment/${out.reference}/confirm`,
      JSON.stringify({ paRes: null, cres: posted.fields.cres }),
    );
    assert.equal(res.json.code, 3);
  });

  it('v1: PaReq, MD and TermUrl in; PaRes and MD posted back to TermUrl', async () => {
    const out: any = await h.client.payments.create(createBody('4000000000003097') as never);
    const { acsUrl, transactionId, paReq } = out.threeDSecure;
    merchant.pages.set(
      '/v1',
      framePostPage(acsUrl, { PaReq: paReq, MD: transactionId, TermUrl: `${merchant.url}/term` }),
    );
    await page.goto(`${merchant.url}/v1`);
    await answerChallenge('test123');
    const posted = await waitFor(() => merchant.posts.find((p) => p.path === '/term'));
    assert.equal(posted.fields.MD, transactionId);
    assert.equal(
      (await h.client.payments.confirm3dsV1(out.reference, posted.fields.PaRes!)).kind,
      'approved',
    );
  });

  it('hosted page: pay with a 3-D Secure test card and land on urls.success', async () => {
    const out = await h.client.foreign.create({
      transaction: { reference: ref('browser'), currency: 'EUR', amount: 1_999 },
      urls: {
        success: `${merchant.url}/success`,
        cancel: `${merchant.url}/cancel`,
        error: `${merchant.url}/error`,
      },
    } as never);
    await page.goto(out.redirectUrl);
    await page.getByLabel('Card number').fill('4000000000003097');
    await page.getByLabel('Name on card').fill('Test Shopper');
    await page.getByLabel('Expiry month').fill('12');
    await page.getByLabel('Expiry year').fill(String(YEAR));
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByLabel('One-time code').fill('1234');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(`${merchant.url}/success`);
    assert.equal((await h.client.lookups.payment(out.reference)).status, 'SETTLED');
  });

  it('EFT page: choose a bank and return; Cancel returns to urls.cancel', async () => {
    const eft = () =>
      h.client.redirects.createEft({
        transaction: { reference: ref('eft'), currency: 'ZAR', amount: 500 },
        consumer: { name: 'Ann', surname: 'Lee', email: 'ann@example.test' },
        urls: {
          success: `${merchant.url}/success`,
          cancel: `${merchant.url}/cancel`,
          error: `${merchant.url}/error`,
        },
      } as never);
    const paid = await eft();
    await page.goto(paid.redirectUrl);
    await page.getByLabel(/Sandbox Bank/).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${merchant.url}/success`);
    const cancelled = await eft();
    await page.goto(cancelled.redirectUrl);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(`${merchant.url}/cancel`);
    assert.equal((await h.client.lookups.payment(cancelled.reference)).status, 'CANCELLED');
  });

  it('dashboard lists transactions with masked cards only', async () => {
    await page.goto(`${h.sandbox.url}/`);
    await page.locator('#rows tr').first().waitFor();
    const text = await page.locator('#rows').innerText();
    assert.match(text, /400000XXXXXX3097/);
    assert.doesNotMatch(text, /4000000000003097/);
  });
});
