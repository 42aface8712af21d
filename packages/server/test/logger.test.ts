import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { redactingLogger } from '../src/logger.js';
import { maskPan, redact } from '../src/cards/mask.js';

describe('log redaction', () => {
  it('masks card numbers to first six and last four', () => {
    assert.equal(maskPan('4111111111111111'), '411111XXXXXX1111');
    assert.equal(maskPan('3782 822463 10005'), '378282XXXXX0005');
  });

  it('masks PAN-looking text and removes CVVs and secrets in nested fields', () => {
    const lines: unknown[] = [];
    const logger = redactingLogger({
      info: (m, f) => lines.push([m, f]),
      warn: (m, f) => lines.push([m, f]),
      error: (m, f) => lines.push([m, f]),
    });
    logger.error('card 4111 1111 1111 1111 failed', {
      request: { creditCard: { number: '5555555555554444', cvv: '123', cardHolder: 'A' } },
      error: new Error('declined 4000000000000002'),
      secret: 'sandbox-secret',
      list: [{ cvc: '999' }],
    });
    const text = JSON.stringify(lines);
    for (const leaked of [
      '4111 1111 1111 1111',
      '5555555555554444',
      '"123"',
      '4000000000000002',
      'sandbox-secret',
      '"999"',
    ]) {
      assert.ok(!text.includes(leaked), `leaked ${leaked}`);
    }
    assert.match(text, /555555XXXXXX4444/);
    assert.match(text, /400000XXXXXX0002/);
  });

  it('masks card numbers (Luhn-valid), not numeric order references', () => {
    const lines: unknown[] = [];
    const logger = redactingLogger({
      info: (m, f) => lines.push([m, f]),
      warn: (m, f) => lines.push([m, f]),
      error: (m, f) => lines.push([m, f]),
    });
    // Order numbers of 12-19 digits, as shops make them: none passes the Luhn check.
    const orders = ['202611260001234', '100000000000000000', '1234567890123', '9876543210987654'];
    logger.warn(`order ${orders[0]} paid by 4111111111111111`, {
      orderReference: orders[1],
      merchantReference: `${orders[2]}-1`,
      note: `refund for ${orders[3]} of 378282246310005`,
    });
    const text = JSON.stringify(lines);
    for (const order of orders) assert.ok(text.includes(order), `order ${order} kept`);
    assert.ok(!text.includes('4111111111111111') && !text.includes('378282246310005'));
    assert.match(text, /411111XXXXXX1111/);
    assert.match(text, /378282XXXXX0005/);
  });

  it('keeps ordinary values and never throws when the logger does', () => {
    assert.deepEqual(redact({ amount: 12345, reference: 'order-1' }), {
      amount: 12345,
      reference: 'order-1',
    });
    const logger = redactingLogger({
      info: () => {
        throw new Error('broken');
      },
      warn: () => undefined,
      error: () => undefined,
    });
    assert.doesNotThrow(() => logger.info('x'));
  });
});
