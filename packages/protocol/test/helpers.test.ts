import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ISO_MILLIS_PATTERN,
  ResponseCode,
  ResponseCodeMeaning,
  TRANSACTION_DATE_PATTERN,
  TransactionStatus,
  WEBHOOK_DATE_PATTERN,
  formatDay,
  formatIsoMillis,
  formatTransactionDate,
  formatWebhookDate,
  maskCardData,
  maskPan,
  maskText,
} from '../src/index.js';

const date = new Date(Date.UTC(2026, 0, 5, 3, 4, 5, 67));

describe('date formatters (UTC)', () => {
  it('format each documented pattern', () => {
    assert.equal(formatTransactionDate(date), '2026-01-05T03:04:05');
    assert.equal(formatIsoMillis(date), '2026-01-05T03:04:05.067Z');
    assert.equal(formatWebhookDate(date), '2026-01-05 03:04:05');
    assert.equal(formatDay(date), '2026-01-05');
    assert.match(formatTransactionDate(date), TRANSACTION_DATE_PATTERN);
    assert.match(formatIsoMillis(date), ISO_MILLIS_PATTERN);
    assert.match(formatWebhookDate(date), WEBHOOK_DATE_PATTERN);
  });
  it('refuse an invalid date', () => {
    assert.throws(() => formatIsoMillis(new Date('nope')), /valid Date/);
  });
});

describe('masking', () => {
  it('maskPan keeps first six and last four', () => {
    assert.equal(maskPan('4111111111111111'), '411111XXXXXX1111');
    assert.equal(maskPan('378282246310005'), '378282XXXXX0005');
    assert.equal(maskPan('4111 1111 1111 1111'), '411111XXXXXX1111');
    assert.equal(maskPan('1234'), 'XXXX');
  });
  it('maskCardData masks numbers and cvvs at any depth, and digit runs in text', () => {
    const masked = maskCardData({
      creditCard: { number: '4111111111111111', cvv: '123', cardHolder: 'J' },
      list: [{ cardNumber: '5555555555554444' }],
      message: 'card 4000000000000002 declined',
    });
    const text = JSON.stringify(masked);
    assert.doesNotMatch(text, /4111111111111111|5555555555554444|4000000000000002|"123"/);
    assert.match(text, /411111XXXXXX1111/);
    assert.match(text, /"cvv":"\*\*\*"/);
  });
  it('maskText leaves merchant references readable and masks free-standing numbers, Luhn-valid or not', () => {
    assert.equal(
      maskText('transaction.reference dup-1795431234562678 was already used'),
      'transaction.reference dup-1795431234562678 was already used',
    );
    assert.equal(maskText('order.4111111111111111-2'), 'order.4111111111111111-2');
    assert.equal(maskText('card 4111111111111112 is invalid'), 'card 411111XXXXXX1112 is invalid');
    assert.equal(maskText('number: 4111-1111-1111-1111'), 'number: 411111XXXXXX1111');
    assert.equal(maskText('{"number":"5555555555554444"}'), '{"number":"555555XXXXXX4444"}');
  });
  it('maskText masks cvv inside unparseable JSON', () => {
    const out = maskText('{"creditCard":{"number":"4111111111111111","cvv":"123"');
    assert.doesNotMatch(out, /4111111111111111|123"/);
  });
});

describe('constants', () => {
  it('has every documented response code with a meaning, and NEW among statuses', () => {
    assert.deepEqual(Object.values(ResponseCode).sort(), [-1, 1, 19, 2, 3, 7].sort());
    for (const code of Object.values(ResponseCode)) assert.ok(ResponseCodeMeaning[code]);
    assert.equal(TransactionStatus.NEW, 'NEW');
  });
});

describe('check', () => {
  it('returns data or readable issues', async () => {
    const { check, TransactionSchema } = await import('../src/index.js');
    const ok = check(TransactionSchema, { reference: 'r', currency: 'ZAR', amount: 1 });
    assert.equal(ok.success, true);
    const bad = check(TransactionSchema, { reference: 'r', currency: 'ZAR', amount: 1.5 });
    assert.equal(bad.success, false);
    if (!bad.success) assert.equal(bad.issues[0]?.path, 'amount');
  });
});

describe('browser safety', () => {
  it('no source file imports a Node module', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../src/', import.meta.url);
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    assert.ok(files.length > 10);
    for (const file of files) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      assert.doesNotMatch(text, /from '(node:|fs|path|crypto|http|buffer)/, file);
    }
  });
});
