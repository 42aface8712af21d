import assert from 'node:assert/strict';
import { cardBody } from '@pg-checkout/test-helpers/cards';
import {
  bankAnswer,
  runMethodStep,
  type Answer,
  type SandboxApp,
} from '@pg-checkout/test-helpers/sandbox-app';

const CHALLENGE_CARD = cardBody('4000000000003063');

/** GET /payments/:reference as the browser that created it (with its client secret). */
export async function readPayment(
  app: SandboxApp,
  reference: string,
  secret: string,
): Promise<Answer> {
  const response = await fetch(`${app.url}/payments/${encodeURIComponent(reference)}`, {
    headers: { 'x-pg-client-secret': secret },
  });
  return { status: response.status, body: await response.json() };
}

/**
 * A full 3-D Secure v2 challenge spread over two instances: created on `one`; method page,
 * Step 2 and the bank's callback (posted three times, to both) on `two`. Returns the reference
 * after checking the payment is approved once, on both instances and at the gateway.
 */
export async function challengeAcrossInstances(one: SandboxApp, two: SandboxApp): Promise<string> {
  const onTwo = (url: string) => url.replace(one.url, two.url);
  const created = await one.post('/payments', CHALLENGE_CARD, { 'x-order': `v2-${Date.now()}` });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const { reference, clientSecret, threeDS } = created.body;
  assert.equal(threeDS.step, 'method');
  assert.equal(typeof clientSecret, 'string');
  await runMethodStep(onTwo(threeDS.methodUrl));
  const step2 = await two.post(
    onTwo(threeDS.confirmUrl),
    {},
    { 'x-pg-client-secret': clientSecret },
  );
  assert.equal(step2.status, 200, JSON.stringify(step2.body));
  assert.equal(step2.body.threeDS.step, 'challenge');
  const hop = await bankAnswer(step2.body.threeDS, '1234');
  const post = (url: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(hop.fields).toString(),
    });
  const pages = await Promise.all([
    post(hop.action),
    post(onTwo(hop.action)),
    post(onTwo(hop.action)),
  ]);
  for (const page of pages) {
    assert.equal(page.status, 200);
    assert.match(await page.text(), /3ds-complete/);
  }
  for (const app of [one, two]) {
    const state = await readPayment(app, reference, clientSecret);
    assert.equal(state.status, 200);
    assert.equal(state.body.status, 'approved');
  }
  const record = await one.record(reference);
  assert.equal(record.status, 'SETTLED');
  assert.equal(record.threeDS.confirmedAt !== null, true);
  return reference;
}
