/**
 * `POST {mount}/reports`: a payment page's CSP, Integrity-Policy and reporter reports reach
 * `onPageIntegrityReport` normalized and bounded; junk, oversized, hostile and too frequent reports get a
 * 4xx that repeats nothing they sent.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PageIntegrityReport } from '@pg-checkout/server';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { startAppOver } from '@pg-checkout/test-helpers/checkout-app';
import { appForSuite } from '@pg-checkout/test-helpers/suite';

const REPORTS = { 'content-type': 'application/reports+json' };
const OLD = { 'content-type': 'application/csp-report' };

const cspViolation = (extra: Record<string, unknown> = {}) => ({
  type: 'csp-violation',
  age: 10,
  url: 'https://shop.test/pay?card=4111111111111111',
  user_agent: 'Mozilla/5.0',
  body: {
    documentURL: 'https://shop.test/pay?card=4111111111111111#x',
    blockedURL: 'https://evil.example/skim.js?c=1',
    effectiveDirective: 'script-src-elem',
    disposition: 'enforce',
    ...extra,
  },
});

overAdapters((adapter) => {
  describe(`page reports (${adapter})`, () => {
    const received: PageIntegrityReport[] = [];
    const app = appForSuite(adapter, { onPageIntegrityReport: (r) => void received.push(r) });
    const post = (raw: string, headers: Record<string, string> = REPORTS) =>
      app.call('POST', '/reports', undefined, { raw, headers, origin: null });

    test('a Reporting API batch: each report reaches the hook, URLs cut to origin and path', async () => {
      received.length = 0;
      const integrity = {
        type: 'integrity-violation',
        url: 'https://shop.test/pay',
        body: {
          documentURL: 'https://shop.test/pay',
          blockedURL: 'https://shop.test/js/pg-checkout.js',
          destination: 'script',
          reportOnly: false,
        },
      };
      const script = {
        type: 'pg-script-error',
        url: 'https://shop.test/pay',
        body: { blockedURL: 'https://shop.test/js/pg-checkout.3ds.js' },
      };
      const answer = await post(JSON.stringify([cspViolation(), integrity, script]));
      assert.equal(answer.status, 204);
      assert.equal(answer.body, '');
      assert.deepEqual(
        received.map(({ receivedAt, ...r }) => (assert.ok(receivedAt > 0), r)),
        [
          {
            kind: 'csp-violation',
            documentUrl: 'https://shop.test/pay',
            blockedUrl: 'https://evil.example/skim.js',
            directive: 'script-src-elem',
            disposition: 'enforce',
          },
          {
            kind: 'integrity-violation',
            documentUrl: 'https://shop.test/pay',
            blockedUrl: 'https://shop.test/js/pg-checkout.js',
            directive: 'script',
            disposition: 'enforce',
          },
          {
            kind: 'script-error',
            documentUrl: 'https://shop.test/pay',
            blockedUrl: 'https://shop.test/js/pg-checkout.3ds.js',
            directive: '',
            disposition: 'enforce',
          },
        ],
      );
    });

    test('the older report-uri body (application/csp-report), a Trusted Types sink among them', async () => {
      received.length = 0;
      const body = {
        'csp-report': {
          'document-uri': 'https://shop.test/pay',
          'blocked-uri': 'trusted-types-sink',
          'violated-directive': 'require-trusted-types-for',
          disposition: 'report',
        },
      };
      assert.equal((await post(JSON.stringify(body), OLD)).status, 204);
      assert.deepEqual(
        received.map(({ kind, blockedUrl, directive, disposition }) => ({
          kind,
          blockedUrl,
          directive,
          disposition,
        })),
        [
          {
            kind: 'csp-violation',
            blockedUrl: 'trusted-types-sink',
            directive: 'require-trusted-types-for',
            disposition: 'report',
          },
        ],
      );
    });

    test('junk, other types and hostile fields: 4xx, never reflected, nothing reaches the hook', async () => {
      received.length = 0;
      const hostile = '<script>alert(1)</script>';
      const cases: [string, Record<string, string>, number][] = [
        [hostile, REPORTS, 400],
        ['{"csp-report": 1}', OLD, 400],
        [JSON.stringify([{ type: 'deprecation', body: { message: hostile } }]), REPORTS, 400],
        [JSON.stringify([1, 'x', null]), REPORTS, 400],
        [JSON.stringify([cspViolation()]), { 'content-type': 'text/plain' }, 415],
        [JSON.stringify([cspViolation()]), { 'content-type': 'text/html' }, 415],
        ['\u00ff\u00fe{}', REPORTS, 400],
      ];
      for (const [raw, headers, status] of cases) {
        const answer = await post(raw, headers);
        assert.equal(answer.status, status, raw);
        assert.doesNotMatch(JSON.stringify(answer.body), /script|alert|deprecation/);
        assert.match(answer.headers.get('content-type') ?? '', /application\/json/);
      }
      assert.equal(received.length, 0);
      // A hostile field inside a good report: bounded, no markup passes.
      const answer = await post(
        JSON.stringify([
          cspViolation({
            blockedURL: `javascript:${hostile}`,
            effectiveDirective: hostile,
            documentURL: `https://shop.test/${'a'.repeat(2000)}`,
          }),
        ]),
      );
      assert.equal(answer.status, 204);
      assert.equal(received[0]!.blockedUrl, 'javascript');
      assert.equal(received[0]!.directive, '');
      assert.equal(received[0]!.documentUrl.length, 512);
    });

    test('oversized: more than 16 KiB or more than 20 reports is 413', async () => {
      received.length = 0;
      const big = JSON.stringify([cspViolation({ sample: 'x'.repeat(17 * 1024) })]);
      assert.equal((await post(big)).status, 413);
      const many = JSON.stringify(Array.from({ length: 21 }, () => cspViolation()));
      assert.equal((await post(many)).status, 413);
      assert.equal(received.length, 0);
    });

    test('a hook that throws is logged, the page still gets 204', async () => {
      const throwing = await startAppOver(adapter)({
        onPageIntegrityReport: () => {
          throw new Error('the merchant database is down');
        },
      });
      try {
        const answer = await throwing.call('POST', '/reports', undefined, {
          raw: JSON.stringify([cspViolation()]),
          headers: REPORTS,
          origin: null,
        });
        assert.equal(answer.status, 204);
      } finally {
        await throwing.close();
      }
    });

    test('30 reports a minute per client, then 429 with Retry-After', async () => {
      const limited = await startAppOver(adapter)({ onPageIntegrityReport: () => undefined });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 32; i++)
          statuses.push(
            (
              await limited.call('POST', '/reports', undefined, {
                raw: JSON.stringify([cspViolation()]),
                headers: REPORTS,
                origin: null,
              })
            ).status,
          );
        assert.deepEqual(statuses, [...Array(30).fill(204), 429, 429]);
      } finally {
        await limited.close();
      }
    });
  });
});
