import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { postForm } from './helpers/forms.js';
import { startReceiver, waitFor } from './helpers/receiver.js';
import { createBody, ref, startHarness, YEAR, type Harness } from './helpers/sandbox.js';

const PAN = '5471209024048015';

describe('card numbers never leave the sandbox unmasked', () => {
  const lines: string[] = [];
  let h: Harness;
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    const log = (line: string): void => void lines.push(line);
    h = await startHarness({ logger: { info: log, warn: log, error: log } });
    hook = await startReceiver();
  });
  after(async () => {
    await h.close();
    await hook.close();
  });

  it('not in responses, lookups, inspection, webhooks, pages or logs', async () => {
    const seen: string[] = [];
    const created = await h.raw(
      'POST',
      '/pg/api/v2/payment/create',
      JSON.stringify(createBody(PAN)),
    );
    seen.push(JSON.stringify(created.json));
    const reg = await h.raw(
      'POST',
      '/pg/api/v2/card/register',
      JSON.stringify({ creditCard: createBody(PAN).creditCard }),
    );
    seen.push(JSON.stringify(reg.json));
    seen.push(
      JSON.stringify(
        (await h.raw('POST', '/pg/api/v2/card/lookup', JSON.stringify({ cardNumber: PAN }))).json,
      ),
    );
    seen.push(JSON.stringify((await h.raw('POST', '/pg/api/v2/payment/list', '{}')).json));
    seen.push(JSON.stringify(await h.inspect(`/_sandbox/transactions/${created.json.reference}`)));
    seen.push(JSON.stringify(await h.inspect('/_sandbox/transactions')));
    const hosted = await h.client.foreign.create({
      transaction: { reference: ref('p'), currency: 'USD', amount: 100 },
      urls: {
        success: 'http://shop.test/s',
        cancel: 'http://shop.test/c',
        error: 'http://shop.test/e',
        notify: hook.url,
      },
    } as never);
    const bad = await postForm(hosted.redirectUrl, {
      number: PAN,
      cardHolder: 'x',
      expiryMonth: '13',
      expiryYear: String(YEAR),
      cvv: '123',
      action: 'pay',
    });
    seen.push(bad.text);
    await postForm(hosted.redirectUrl, {
      number: PAN,
      cardHolder: 'x',
      expiryMonth: '12',
      expiryYear: String(YEAR),
      cvv: '987',
      action: 'pay',
    });
    seen.push((await waitFor(() => hook.received[0])).body);
    seen.push(lines.join('\n'));
    for (const text of seen) {
      assert.doesNotMatch(text, new RegExp(PAN));
      // The CVV as a value of its own: a timestamp's milliseconds (`16.987Z`) or a reference's digits are not it.
      assert.doesNotMatch(text, /(?<![\w.:-])987(?!\w)/);
    }
    assert.match(seen.join(' '), /547120XXXXXX8015/);
    assert.ok(lines.length > 5);
  });
});
