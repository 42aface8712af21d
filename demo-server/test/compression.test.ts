import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { repoRoot } from '../src/platform/build.js';
import { chooseEncoding } from '../src/platform/http/compress.js';
import { criticalCss } from '../src/shop/pages/critical-css.js';
import { demoOnSandbox } from './helpers/demo.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as it crossed the wire. */
  wire: Buffer;
  /** The body decoded by its Content-Encoding. */
  text: string;
}

function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const wire = Buffer.concat(parts);
        const encoding = res.headers['content-encoding'];
        const plain =
          wire.length === 0
            ? wire
            : encoding === 'br'
              ? brotliDecompressSync(wire)
              : encoding === 'gzip'
                ? gunzipSync(wire)
                : wire;
        resolve({ status: res.statusCode!, headers: res.headers, wire, text: plain.toString() });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const varies = (r: Raw) => /accept-encoding/i.test(String(r.headers.vary ?? ''));

describe('the encoding a request accepts', () => {
  test('brotli before gzip, a q=0 refuses one, nothing named is identity', () => {
    assert.equal(chooseEncoding('gzip, deflate, br'), 'br');
    assert.equal(chooseEncoding('gzip, br;q=0'), 'gzip');
    assert.equal(chooseEncoding('deflate'), 'identity');
    assert.equal(chooseEncoding(undefined), 'identity');
    assert.equal(chooseEncoding('*'), 'br');
  });
});

describe('critical CSS of the checkout page', () => {
  test('is the part of shop.css above its critical-end comment, without comments', () => {
    const css = criticalCss(readFileSync(join(repoRoot, 'demo-server/web/src/shop.css'), 'utf8'));
    assert.match(css, /\.shop\{/);
    assert.match(css, /pg-checkout:not\(:defined\)\{/);
    assert.doesNotMatch(css, /\.item\{|\.chart|\/\*/);
  });
});

describe('the demo serves its bytes compressed, one round trip to first paint', () => {
  const suite = demoOnSandbox();

  test('the checkout page: brotli, gzip or identity as asked, always Vary, critical CSS inline', async () => {
    const url = `${suite.demo.url}/`;
    const br = await get(url, { 'Accept-Encoding': 'gzip, deflate, br' });
    assert.equal(br.status, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.ok(varies(br));
    assert.ok(br.wire.length * 2.5 < br.text.length, `${br.wire.length} of ${br.text.length}`);
    const gzip = await get(url, { 'Accept-Encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    const plain = await get(url);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(varies(plain));

    const html = br.text;
    const head = html.slice(0, html.indexOf('</head>'));
    assert.doesNotMatch(head, /<link rel="stylesheet"/, 'no style sheet blocks the first paint');
    assert.match(head, /<style nonce="[^"]+">[^<]*\.shop\{/);
    const sheet = html.search(/<link rel="stylesheet"[^>]*\.css"/);
    assert.ok(sheet > html.indexOf('</main>'), 'the full style sheet is asked for after the page');
  });

  test('hashed assets are cached a year; the elements and shop.css are revalidated', async () => {
    const html = (await get(`${suite.demo.url}/`)).text;
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const sheet = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    assert.ok(script && sheet);
    for (const path of [script, sheet]) {
      const r = await get(`${suite.demo.url}${path}`, { 'Accept-Encoding': 'br, gzip' });
      assert.equal(r.status, 200, path);
      assert.equal(r.headers['content-encoding'], 'br', path);
      assert.equal(r.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.ok(varies(r));
    }
    for (const path of ['/elements/pg-checkout.js', '/elements/pg-checkout.3ds.js', '/shop.css']) {
      const r = await get(`${suite.demo.url}${path}`, { 'Accept-Encoding': 'gzip' });
      assert.equal(r.status, 200, path);
      assert.equal(r.headers['content-encoding'], 'gzip', path);
      assert.equal(r.headers['cache-control'], 'public, no-cache');
      assert.ok(varies(r));
      const again = await get(`${suite.demo.url}${path}`, {
        'Accept-Encoding': 'gzip',
        'If-None-Match': String(r.headers.etag),
      });
      assert.equal(again.status, 304, path);
    }
  });
});
