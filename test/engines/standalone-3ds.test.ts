/**
 * `<pg-3ds-v2>` and `<pg-3ds-v1>` used alone from the script tag (the BUILT files): written in the page's
 * HTML before the script, after it, or made once `pg-checkout.3ds.js` has arrived, each upgrades without
 * an error and completes a payment with a challenge against the sandbox.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch, type Engine, type Tab } from './engines.js';
import { until } from './shopper.js';
import { paymentPageHeaders } from '@pg-checkout/server';
import {
  ERRORS_SCRIPT,
  FAULTS_SCRIPT,
  standalonePayment,
  startPaymentPage,
} from './payment-page.js';

const SCRIPT = '<script src="/elements/pg-checkout.js"></script>';
const ERRORS = `<script>${ERRORS_SCRIPT}</script>`;

/** Where the element is written relative to the script tag. */
const PLACES = {
  'in the HTML before the script': (tag: string) =>
    `${ERRORS}<${tag} endpoint="/checkout"></${tag}>${SCRIPT}`,
  'in the HTML after the script': (tag: string) =>
    `${ERRORS}${SCRIPT}<${tag} endpoint="/checkout"></${tag}>`,
  'made after the chunk arrived': () => `${ERRORS}${SCRIPT}`,
} as const;

const CARDS = { 'pg-3ds-v2': '4000000000003063', 'pg-3ds-v1': '4000000000003097' } as const;

/** The shopper at the bank's page: the code, then Submit. */
async function answerBank(tab: Tab): Promise<void> {
  await until('the bank page', () =>
    tab.bankEvaluate<boolean>(
      `const otp = document.querySelector('#otp'); if (!otp) return false; otp.value = '1234'; document.querySelector('button[value=submit]').click(); return true;`,
    ),
  );
}

describe('the standalone 3-D Secure elements from the script tag', () => {
  let engine: Engine;
  before(async () => {
    engine = await launch('chromium');
  });
  after(() => engine.close());

  for (const [place, html] of Object.entries(PLACES))
    for (const [tag, number] of Object.entries(CARDS))
      test(`<${tag}> ${place} upgrades and completes a challenge`, async () => {
        const page = await startPaymentPage({
          html: () =>
            `<!doctype html><html><head><title>Pay</title></head><body>${html(tag)}</body></html>`,
        });
        const tab = await engine.newTab();
        try {
          await tab.open(page.url);
          const made = place === 'made after the chunk arrived';
          if (made)
            // The chunk comes on the first touch or 2 s after load; the element is made once it is defined.
            await until('pg-checkout.3ds.js', () =>
              tab.evaluate<boolean>(
                `return !!PgCheckout.${tag === 'pg-3ds-v2' ? 'Pg3dsV2' : 'Pg3dsV1'}`,
              ),
            );
          await tab.evaluate(standalonePayment(tag, number, made));
          await answerBank(tab);
          const outcome = await until('the outcome', () =>
            tab.evaluate<string>('return window.pgOutcome'),
          );
          assert.equal(outcome, 'approved');
          assert.deepEqual(await tab.evaluate<string[]>('return window.pgErrors'), []);
        } finally {
          await tab.close();
          await page.close();
        }
      });

  test('<pg-3ds-v2> handed the method content inline runs it under Trusted Types (policy pg-checkout)', async () => {
    const page = await startPaymentPage({
      html: ({ nonce }) =>
        `<!doctype html><html><head><title>Pay</title><script nonce="${nonce}">${FAULTS_SCRIPT}</script></head><body><pg-3ds-v2 endpoint="/checkout"></pg-3ds-v2><script nonce="${nonce}" src="/elements/pg-checkout.js"></script></body></html>`,
      headers: ({ nonce, gatewayOrigin }) => paymentPageHeaders({ gatewayOrigin, nonce }).headers,
    });
    const tab = await engine.newTab();
    try {
      await tab.open(page.url);
      await tab.evaluate(standalonePayment('pg-3ds-v2', CARDS['pg-3ds-v2'], false, true));
      await until('the method frame', () =>
        tab.evaluate<boolean>(
          `return !!document.querySelector('pg-3ds-v2').shadowRoot.querySelector('iframe[part=method-frame]')?.srcdoc`,
        ),
      );
      await answerBank(tab);
      assert.equal(
        await until('the outcome', () => tab.evaluate<string>('return window.pgOutcome')),
        'approved',
      );
      const faults = await tab.evaluate<string[]>('return window.pgFaults');
      assert.deepEqual(
        faults.filter((f) => /trusted/i.test(f)),
        [],
        'no Trusted Types refusal',
      );
    } finally {
      await tab.close();
      await page.close();
    }
  });
});
