/**
 * Issue 38, case 2: a genuine proof is never lost. A bank's post refused for its turn (after a
 * junk proof from the same network, or while the bank's first post is in flight) is answered with
 * a page that carries the proof forward: the same fields in a form to the same URL, re-posted by
 * its own script (allowed by hash) after Retry-After, with a "Continue" button for no script.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { card, local, startAppOver, type TestApp } from '@pg-checkout/test-helpers/checkout-app';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { holdClock } from '@pg-checkout/test-helpers/clock';

interface Page {
  status: number;
  html: string;
  headers: Headers;
  url: string;
}

/** A browser's form post (the bank's, or the page's own) from a client address of the test's choosing. */
async function postForm(url: string, ip: string, form: Record<string, string>): Promise<Page> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, html: await response.text(), headers: response.headers, url };
}

const unescape = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * What a browser does with the busy page: checks its script against the page's CSP, reads the
 * form (no action: the page's own URL), and posts its fields again after `data-after` seconds.
 */
function carriedForm(page: Page): { url: string; fields: Record<string, string>; afterS: number } {
  const form = /<form id="pg-carry" method="post" data-after="(\d+)">([\s\S]*?)<\/form>/.exec(
    page.html,
  );
  assert.ok(form, `no carry-forward form in: ${page.html}`);
  assert.doesNotMatch(form[0], /\baction=/, 'posts to the page’s own URL');
  assert.match(form[2]!, /<button type="submit">Continue<\/button>/, 'a button for no script');
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    fields[unescape(input[1]!)] = unescape(input[2]!);
  const csp = page.headers.get('content-security-policy') ?? '';
  const scripts = [...page.html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  assert.equal(scripts.length, 1, 'one inline script');
  const hash = createHash('sha256').update(scripts[0]!).digest('base64');
  assert.match(csp, new RegExp(`script-src 'sha256-${hash.replace(/[+/]/g, '\\$&')}'`));
  assert.match(csp, /form-action 'self'/);
  assert.match(scripts[0]!, /submit\(\)/);
  assert.equal(page.headers.get('retry-after'), form[1]);
  return { url: page.url, fields, afterS: Number(form[1]) };
}

overAdapters((adapter) => {
  const startApp = startAppOver(adapter);
  const proofCalls = (app: TestApp) =>
    app.gateway.calls.filter((c) => /^confirm3ds|lookup|reconcile/.test(c)).length;

  describe('a genuine proof refused for its turn is carried forward by its page', () => {
    it('junk cres, then the genuine one within the second from the same network: the re-post pays', async (t) => {
      const clock = holdClock(t.mock);
      const app = await startApp({ rateLimit: {} });
      try {
        const nat = '10.85.0.1';
        const created = await app.call('POST', '/payments', card('4000000000003055'), {
          headers: { 'x-forwarded-for': nat },
        });
        const { reference, threeDS } = created.body;
        const callback = local(app, String(app.gateway.lastCreate!.callbackUrl));
        const session = threeDS.threeDSSessionData;

        const junk = await postForm(callback, nat, { cres: 'junk', threeDSSessionData: session });
        assert.equal(junk.status, 400);
        const afterJunk = proofCalls(app);

        const genuine = await postForm(callback, nat, {
          cres: 'good-proof',
          threeDSSessionData: session,
        });
        assert.equal(genuine.status, 429);
        assert.match(genuine.html, /Please wait a moment/);
        assert.doesNotMatch(genuine.html, /3ds-complete/);
        assert.equal(proofCalls(app), afterJunk, 'a post refused for its turn asks nothing');
        assert.equal(app.gateway.txns.get(reference)!.status, 'THREE_D_SECURE');

        const carried = carriedForm(genuine);
        assert.deepEqual(carried.fields, { cres: 'good-proof', threeDSSessionData: session });
        assert.equal(carried.url, callback);
        assert.ok(!carried.url.includes('good-proof'), 'the proof is never in a URL');

        clock.tick(carried.afterS * 1_000 + 50);
        const reposted = await postForm(carried.url, nat, carried.fields);
        assert.equal(reposted.status, 200, reposted.html);
        assert.match(reposted.html, /3ds-complete/);
        assert.equal(app.gateway.txns.get(reference)!.status, 'SETTLED');
        const status = await app.call('GET', `/payments/${reference}`, undefined, {
          headers: { 'x-forwarded-for': nat },
        });
        assert.equal(status.body.status, 'approved');
      } finally {
        await app.close();
      }
    });

    it('junk re-posted by its own page still costs no gateway call while its turn is refused', async (t) => {
      const clock = holdClock(t.mock);
      const app = await startApp({ rateLimit: {} });
      try {
        const ip = '10.86.0.1';
        const created = await app.call('POST', '/payments', card('4000000000003055'), {
          headers: { 'x-forwarded-for': ip },
        });
        const { reference, threeDS } = created.body;
        const callback = local(app, String(app.gateway.lastCreate!.callbackUrl));
        const junk = { cres: 'junk', threeDSSessionData: threeDS.threeDSSessionData };
        assert.equal((await postForm(callback, ip, junk)).status, 400);
        const before = proofCalls(app);
        const pages = await Promise.all(
          Array.from({ length: 20 }, () => postForm(callback, ip, junk)),
        );
        assert.deepEqual(new Set(pages.map((p) => p.status)), new Set([429]));
        // Each page would post its junk again: within the second, still refused, still no call.
        const again = await Promise.all(
          pages.map((p) => carriedForm(p)).map((c) => postForm(c.url, ip, c.fields)),
        );
        assert.deepEqual(new Set(again.map((p) => p.status)), new Set([429]));
        assert.equal(proofCalls(app), before, 'no gateway call for a refused turn');
        // After the wait, one re-post is one turn: the gateway refuses the junk once.
        clock.tick(1_100);
        const turn = await postForm(callback, ip, junk);
        assert.equal(turn.status, 400);
        assert.equal(app.gateway.txns.get(reference)!.status, 'THREE_D_SECURE');
      } finally {
        await app.close();
      }
    });

    it('a bank that posts its PaRes twice at once: one confirm, and the carried copy ends on the done page', async (t) => {
      const clock = holdClock(t.mock);
      const app = await startApp({ rateLimit: {} });
      try {
        const ip = '10.87.0.1';
        const created = await app.call('POST', '/payments', card('4000000000003097'), {
          headers: { 'x-forwarded-for': ip },
        });
        const { reference, threeDS } = created.body;
        const term = local(app, String(threeDS.termUrl));
        const form = { PaRes: 'good-proof', MD: String(threeDS.md) };
        // The bank's second post arrives while its first is at the gateway.
        const confirm = app.gateway.payments.confirm3dsV1;
        app.gateway.payments.confirm3dsV1 = async (ref, paRes) => {
          await sleep(300);
          return confirm(ref, paRes);
        };
        const firstPost = postForm(term, ip, form);
        await sleep(100);
        const second = await postForm(term, ip, form);
        const first = await firstPost;
        const pages = [first, second].sort((a, b) => a.status - b.status);
        assert.deepEqual(
          pages.map((p) => p.status),
          [200, 429],
          pages.map((p) => p.html).join('\n'),
        );
        assert.equal(app.gateway.txns.get(reference)!.status, 'SETTLED');
        const carried = carriedForm(pages[1]!);
        assert.deepEqual(carried.fields, form);
        clock.tick(carried.afterS * 1_000 + 50);
        const confirms = () => app.gateway.calls.filter((c) => c.startsWith('confirm3ds')).length;
        const before = confirms();
        const reposted = await postForm(carried.url, ip, carried.fields);
        assert.equal(reposted.status, 200, reposted.html);
        assert.match(reposted.html, /3ds-complete/);
        assert.equal(confirms(), before, 'a paid attempt’s proof is not sent again');
        assert.equal(app.gateway.txns.get(reference)!.status, 'SETTLED');
      } finally {
        await app.close();
      }
    });
  });
});
