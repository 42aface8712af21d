import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { GatewayClient } from '@pg-checkout/node';
import type { Sandbox } from '@pg-checkout/sandbox';
import {
  adminSession,
  backOfficePage,
  formFields,
  submitForm,
  type AdminSession,
} from '@pg-checkout/test-helpers/admin';
import { startSandboxClient } from '@pg-checkout/test-helpers/sandbox-client';
import { refundedAtSandbox, settledPayment } from '@pg-checkout/test-helpers/sandbox-payments';
import { startLossyGateway, type LossyGateway } from '@pg-checkout/test-helpers/lossy-gateway';
import { startTestDemo, type TestDemo } from './helpers/demo.js';

// Issue 26, case 4: a refund whose answer was lost is never refunded again. The shop talks to the
// sandbox through a proxy that can lose a refund's answer after the sandbox processed it, and then
// fail the lookups of refund slot references, as a network that drops answers would.

let sandbox: Sandbox;
let proxy: LossyGateway;
let demo: TestDemo;
let admin: AdminSession;
let client: GatewayClient;

before(async () => {
  ({ sandbox, client } = await startSandboxClient());
  proxy = await startLossyGateway(sandbox.url);
  demo = await startTestDemo({ baseUrl: proxy.url, token: sandbox.token, secret: sandbox.secret });
  admin = await adminSession(demo.shop);
});
after(async () => {
  await demo?.close();
  await proxy?.close();
  await sandbox?.close();
});

/** The cell of a payment's actions in the back office's transaction list. */
function actionsOf(html: string, reference: string): string {
  const row = html.indexOf(`<td><code>${reference}</code></td>`);
  assert.ok(row >= 0, `the back office lists ${reference}`);
  return html.slice(row, html.indexOf('</tr>', row));
}

const notice = (html: string) =>
  /<p role="status" class="notice">([^<]*)<\/p>/.exec(html)?.[1] ?? '';

test('case 4: a refund whose answer was lost shows "checking", offers only what is left, and is never refunded twice', async () => {
  const reference = await settledPayment(client, 4_900, `demo-refund-${randomUUID().slice(0, 8)}`);
  const form = formFields(await backOfficePage(demo.url, admin), reference, 'refund');
  const send = (fields: Record<string, string>) =>
    submitForm(demo.url, admin, `/admin/payments/${reference}/refund`, fields);

  proxy.loseNextRefundAnswer();
  assert.equal(await send({ ...form, amount: '20,00' }), 303);
  assert.equal(
    await refundedAtSandbox(sandbox.url, reference),
    2_000,
    'R 20,00 reached the gateway',
  );

  let page = await backOfficePage(demo.url, admin);
  assert.match(notice(page), /checking/i);
  assert.doesNotMatch(notice(page), /failed/i);
  let cell = actionsOf(page, reference);
  assert.match(cell, new RegExp(`data-refund-checking="${form.key}"`), 'the reload still checks');
  // Refunds are known only by their lookups, which fail: no amount is offered, nothing more sent.
  assert.match(cell, /Refundable amount unknown/);
  assert.doesNotMatch(cell, /data-refundable=/);
  assert.doesNotMatch(cell, /placeholder="49,00"/);

  // The same form again while the gateway still cannot say: nothing is sent blind.
  assert.equal(await send({ ...form, amount: '20,00' }), 303);
  page = await backOfficePage(demo.url, admin);
  assert.match(notice(page), /checking/i);
  assert.equal(await refundedAtSandbox(sandbox.url, reference), 2_000);

  // The gateway answers again: the reload finds the form's refund by its reference.
  proxy.blindLookups = false;
  page = await backOfficePage(demo.url, admin);
  cell = actionsOf(page, reference);
  assert.doesNotMatch(cell, /data-refund-checking/);
  assert.match(cell, /data-refundable="2900"/);
  assert.equal(await send({ ...form, amount: '20,00' }), 303);
  assert.match(notice(await backOfficePage(demo.url, admin)), /already sent/);
  assert.equal(
    await refundedAtSandbox(sandbox.url, reference),
    2_000,
    'the second submit refunded nothing',
  );

  // A new form for "all" refunds what is left, R 29,00, once.
  const rest = formFields(await backOfficePage(demo.url, admin), reference, 'refund');
  assert.deepEqual(
    await Promise.all([send({ ...rest, amount: '' }), send({ ...rest, amount: '' })]),
    [303, 303],
  );
  assert.equal(await refundedAtSandbox(sandbox.url, reference), 4_900);
  cell = actionsOf(await backOfficePage(demo.url, admin), reference);
  assert.doesNotMatch(cell, /action="\/admin\/payments\/[^"]+\/refund"/, 'nothing left to offer');
});
