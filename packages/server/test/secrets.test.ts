import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSecrets } from '../src/internal/secrets.js';

describe('3-D Secure session tokens', () => {
  it('a token past sessionTtlMs is refused; one within it works', async () => {
    let now = 1_000_000;
    const secrets = createSecrets({
      sessionSecret: 'k'.repeat(32),
      sessionTtlMs: 60_000,
      now: () => now,
    });
    const token = secrets.sessionToken('order-7-2');
    assert.equal(secrets.merchantReferenceOf(token), 'order-7-2');
    now += 59_000;
    assert.equal(secrets.merchantReferenceOf(token), 'order-7-2');
    now += 2_000;
    assert.equal(secrets.merchantReferenceOf(token), undefined);
    const other = createSecrets({
      sessionSecret: 'j'.repeat(32),
      sessionTtlMs: 60_000,
      now: () => 0,
    });
    assert.equal(
      other.merchantReferenceOf(other.sessionToken('x-1').replace(/^[^.]+/, 'eC0y')),
      undefined,
    );
  });
});
