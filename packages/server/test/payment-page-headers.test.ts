import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { paymentPageHeaders, TRUSTED_TYPES_POLICIES } from '@pg-checkout/server';

const directives = (csp: string) =>
  new Map(
    csp.split('; ').map((d) => {
      const [name, ...sources] = d.split(' ');
      return [name!, sources];
    }),
  );

describe('paymentPageHeaders', () => {
  test('a nonce-based CSP with strict-dynamic, Trusted Types naming the elements policies, banks over https:', () => {
    const nonce = 'AAECAwQFBgcICQoLDA0ODw==';
    const { headers } = paymentPageHeaders({ gatewayOrigin: 'http://127.0.0.1:8787', nonce });
    const csp = directives(headers['Content-Security-Policy']!);
    assert.deepEqual(csp.get('script-src'), [`'nonce-${nonce}'`, "'strict-dynamic'"]);
    assert.deepEqual(csp.get('frame-src'), ["'self'", 'https:', 'http://127.0.0.1:8787']);
    assert.deepEqual(csp.get('form-action'), csp.get('frame-src'));
    assert.deepEqual(csp.get('require-trusted-types-for'), ["'script'"]);
    assert.deepEqual(csp.get('trusted-types'), ['lit-html', 'pg-checkout']);
    assert.deepEqual([...TRUSTED_TYPES_POLICIES], ['lit-html', 'pg-checkout']);
    assert.deepEqual(csp.get('object-src'), ["'none'"]);
    assert.deepEqual(csp.get('base-uri'), ["'none'"]);
    assert.equal(csp.has('report-to'), false);
    assert.deepEqual(Object.keys(headers), ['Content-Security-Policy']);
  });

  test("the middleware's own origin, the report endpoint and Integrity-Policy when asked for", () => {
    const { headers } = paymentPageHeaders({
      gatewayOrigin: 'https://gateway.example/pg/api',
      publicUrl: 'https://www.shop.example/checkout',
      reportTo: '/checkout/reports',
      integrityPolicy: true,
    });
    const csp = directives(headers['Content-Security-Policy']!);
    assert.deepEqual(csp.get('connect-src'), ["'self'", 'https://www.shop.example']);
    assert.deepEqual(csp.get('frame-src'), [
      "'self'",
      'https://www.shop.example',
      'https:',
      'https://gateway.example',
    ]);
    assert.deepEqual(csp.get('report-to'), ['pg-checkout']);
    assert.deepEqual(csp.get('report-uri'), ['/checkout/reports']);
    assert.equal(headers['Reporting-Endpoints'], 'pg-checkout="/checkout/reports"');
    assert.equal(
      headers['Integrity-Policy'],
      'blocked-destinations=(script), endpoints=(pg-checkout)',
    );
  });

  test('a fresh nonce each call when none is given', () => {
    const a = paymentPageHeaders({ gatewayOrigin: 'https://gateway.example' });
    const b = paymentPageHeaders({ gatewayOrigin: 'https://gateway.example' });
    assert.match(a.nonce, /^[A-Za-z0-9+/]{22}==$/);
    assert.notEqual(a.nonce, b.nonce);
    assert.ok(a.headers['Content-Security-Policy']!.includes(`'nonce-${a.nonce}'`));
  });

  test('refuses what would break the policy, naming the option', () => {
    assert.throws(() => paymentPageHeaders({ gatewayOrigin: 'gateway.example' }), /gatewayOrigin/);
    assert.throws(
      () => paymentPageHeaders({ gatewayOrigin: 'https://g.example', nonce: "x'; script-src *" }),
      /nonce/,
    );
    assert.throws(
      () =>
        paymentPageHeaders({ gatewayOrigin: 'https://g.example', reportTo: '/r; script-src *' }),
      /reportTo/,
    );
    assert.throws(
      () => paymentPageHeaders({ gatewayOrigin: 'https://g.example', scriptSources: ['a; b'] }),
      /script source/,
    );
    assert.throws(
      () => paymentPageHeaders({ gatewayOrigin: 'javascript:alert(1)' }),
      /gatewayOrigin/,
    );
  });
});
