// Our IP parsing (node:net is not on every runtime) against node:net's isIP.
import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { describe, it } from 'node:test';
import { ipVersion, parseIPv6 } from '../src/limits/ip.js';
import { clientKey } from '../src/limits/limits.js';

const TOKENS = [
  '0',
  '1',
  'f',
  'F',
  'ffff',
  '12345',
  'g',
  ':',
  '::',
  '.',
  '%',
  'eth0',
  '255',
  '256',
];
const MORE = ['01', '1.2.3.4', '::ffff:', 'a:b', '-', ' '];

describe('ipVersion', () => {
  it('answers as node:net isIP on addresses people send', () => {
    for (const s of [
      '203.0.113.7',
      '0.0.0.0',
      '255.255.255.255',
      '256.1.1.1',
      '01.2.3.4',
      '1.2.3',
      '1.2.3.4.5',
      '::1',
      '::',
      '1::',
      '2001:db8::1',
      '2001:DB8:0:0:8:800:200C:417A',
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7::',
      '::1:2:3:4:5:6:7',
      '1:2:3:4:5:6:7:8:9',
      ':1:2:3:4:5:6:7',
      '1:2:3:4:5:6:7:',
      '1:::2',
      '1::2::3',
      '::ffff:203.0.113.7',
      '::ffff:256.0.113.7',
      '1:2:3:4:5:6:1.2.3.4',
      '1::2:3:4:5:6:1.2.3.4',
      '::1.2.3.4:1',
      '1.2.3.4::',
      'fe80::1%eth0',
      'fe80::1%',
      'fe80::1%en 0',
      '12345::',
      'g::1',
      '',
      ' ::1',
      'localhost',
    ]) {
      assert.equal(ipVersion(s), isIP(s), JSON.stringify(s));
    }
  });

  it('answers as node:net isIP on 200,000 strings built from address pieces', () => {
    let seed = 28;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
    const seen = { 0: 0, 4: 0, 6: 0 };
    for (let i = 0; i < 200_000; i++) {
      const pieces = i % 2 ? TOKENS : [...TOKENS, ...MORE];
      let s = '';
      for (let n = 1 + Math.floor(next() * 12); n > 0; n--)
        s += pieces[Math.floor(next() * pieces.length)];
      const version = isIP(s) as 0 | 4 | 6;
      assert.equal(ipVersion(s), version, JSON.stringify(s));
      seen[version]++;
    }
    // The pieces must reach valid addresses of both families, or the comparison says little.
    assert.ok(seen[4] > 50 && seen[6] > 1_000, JSON.stringify(seen));
  });
});

describe('parseIPv6', () => {
  it('expands :: and a dotted IPv4 tail into eight words', () => {
    assert.deepEqual(parseIPv6('2001:db8::1'), [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    assert.deepEqual(parseIPv6('::ffff:203.0.113.7'), [0, 0, 0, 0, 0, 0xffff, 0xcb00, 0x7107]);
    assert.deepEqual(parseIPv6('fe80::1%eth0'), [0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    assert.equal(parseIPv6('1::2::3'), undefined);
  });

  it('keeps the rate limit buckets as before: IPv6 by prefix, IPv4-mapped as IPv4', () => {
    assert.equal(clientKey('2001:db8:1:2:3:4:5:6', 64), '2001:db8:1:2:0:0:0:0/64');
    assert.equal(clientKey('2001:db8:1:2::9%eth0', 56), '2001:db8:1:0:0:0:0:0/56');
    assert.equal(clientKey('::ffff:203.0.113.7', 64), '203.0.113.7');
    assert.equal(clientKey('203.0.113.7', 64), '203.0.113.7');
    assert.equal(clientKey('::1.2.3.4', 128), '0:0:0:0:0:0:102:304/128');
  });
});
