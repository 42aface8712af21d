// The runtime-neutral hashes against node:crypto: the pure MD5 of webhook hashes, the Web Crypto
// HMAC a runtime without node:crypto signs with, and the constant-time comparison.
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { constantTimeEqual, hmacSha256Hex, webHmacSha256Hex } from '../src/internal/crypto.js';
import { md5Hex } from '../src/internal/md5.js';

const nodeMd5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');
const nodeHmac = (key: string, s: string) =>
  createHmac('sha256', key).update(s, 'utf8').digest('hex');

// A fixed pseudo-random source, so a failure names an input that can be replayed.
function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
}
const ALPHABET = ['a', 'Z', '0', ' ', '\n', 'é', 'ß', '€', '中', '😀', '\u0000', '"', '\\'];
function text(next: () => number, length: number): string {
  let out = '';
  while (out.length < length) out += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return out;
}

describe('md5Hex', () => {
  it('gives the RFC 1321 test suite answers', () => {
    assert.equal(md5Hex(''), 'd41d8cd98f00b204e9800998ecf8427e');
    assert.equal(md5Hex('abc'), '900150983cd24fb0d6963f7d28e17f72');
    assert.equal(md5Hex('message digest'), 'f96b697d7cb7938d525a2f31aaf161d0');
    assert.equal(
      md5Hex('12345678901234567890123456789012345678901234567890123456789012345678901234567890'),
      '57edf4a22be3c955ac49da2e2107b67a',
    );
  });

  it('agrees with node:crypto for every ASCII length from 0 to 300 bytes (padding edges 55, 56, 63, 64, 119, 120)', () => {
    for (let n = 0; n <= 300; n++) {
      const s = 'PG-1234567890abcdef'.repeat(20).slice(0, n);
      assert.equal(md5Hex(s), nodeMd5(s), `length ${n}`);
    }
  });

  it('agrees with node:crypto on unicode whose UTF-8 length straddles a block edge', () => {
    // 'é' is 2 bytes, '€' 3, '😀' 4: these put the UTF-8 length at 55, 56, 57, 63, 64 and 65.
    for (const s of [
      'é'.repeat(27) + 'a',
      'é'.repeat(28),
      '€'.repeat(19),
      '😀'.repeat(14) + 'abcdefg',
      '😀'.repeat(16),
      '😀'.repeat(16) + 'x',
      '\u0000'.repeat(64),
    ]) {
      assert.equal(md5Hex(s), nodeMd5(s), JSON.stringify(s));
    }
  });

  it('agrees with node:crypto on 2,000 random strings of mixed scripts', () => {
    const next = random(28);
    for (let i = 0; i < 2_000; i++) {
      const s = text(next, Math.floor(next() * 200));
      assert.equal(md5Hex(s), nodeMd5(s), JSON.stringify(s));
    }
  });

  it('handles a body of a megabyte', () => {
    const s = 'x€'.repeat(350_000);
    assert.equal(md5Hex(s), nodeMd5(s));
  });
});

describe('HMAC-SHA256', () => {
  it('through Web Crypto agrees with node:crypto on random keys and data', async () => {
    const next = random(56);
    for (let i = 0; i < 300; i++) {
      const key = text(next, 1 + Math.floor(next() * 80));
      const data = text(next, Math.floor(next() * 2_000));
      assert.equal(await webHmacSha256Hex(key, data), nodeHmac(key, data));
    }
  });

  it('through Web Crypto agrees with node:crypto for keys longer than a block (hashed first)', async () => {
    const key = 'k'.repeat(65);
    assert.equal(await webHmacSha256Hex(key, 'data'), nodeHmac(key, 'data'));
    assert.equal(await webHmacSha256Hex('€'.repeat(30), 'data'), nodeHmac('€'.repeat(30), 'data'));
  });

  it('keeps signing right past the Web Crypto key cache (more secrets than it holds)', async () => {
    for (let i = 0; i < 40; i++) {
      const key = `secret-${i % 20}`;
      assert.equal(await webHmacSha256Hex(key, `data-${i}`), nodeHmac(key, `data-${i}`));
    }
  });

  it('hmacSha256Hex (the path this runtime takes) agrees too', async () => {
    assert.equal(await hmacSha256Hex('s', 'é'), nodeHmac('s', 'é'));
  });
});

describe('constantTimeEqual', () => {
  it('is equality of strings', () => {
    assert.equal(constantTimeEqual('', ''), true);
    assert.equal(constantTimeEqual('abc', 'abc'), true);
    assert.equal(constantTimeEqual('abc', 'abd'), false);
    assert.equal(constantTimeEqual('abc', 'ab'), false);
    assert.equal(constantTimeEqual('ab', 'abc'), false);
    assert.equal(constantTimeEqual('é', 'e'), false);
    assert.equal(constantTimeEqual('\u0100', '\u0000'), false);
  });
});
