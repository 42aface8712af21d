// The encodings the secrets use without Buffer, against Buffer's own.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { base64, base64url, fromBase64url } from '../src/runtime/crypto.js';

describe('base64 without Buffer', () => {
  it('encodes as Buffer does, every length from 0 to 300 bytes', () => {
    for (let n = 0; n <= 300; n++) {
      for (let k = 0; k < 5; k++) {
        const bytes = randomBytes(n);
        assert.equal(base64(bytes), bytes.toString('base64'));
        assert.equal(base64url(bytes), bytes.toString('base64url'));
        assert.deepEqual(Buffer.from(fromBase64url(bytes.toString('base64url'))), bytes);
      }
    }
  });

  it('refuses what no encoder makes', () => {
    assert.throws(() => fromBase64url('abcde'), /length/);
    assert.throws(() => fromBase64url('ab+/'), /character/);
  });
});
