import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { MemoryStore, type CheckoutStore } from '../../src/index.js';
import {
  completeChallenge,
  runMethodStep,
  type Answer,
  bankAnswer,
} from '@pg-checkout/test-helpers/sandbox-app';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { cardBody } from '@pg-checkout/test-helpers/cards';
import { sandboxAppForSuite } from '@pg-checkout/test-helpers/suite';

overAdapters((adapter) => {
  const logLines: string[] = [];
  const stored: string[] = [];
  const inner = new MemoryStore();
  // Records every value written, to prove no card data is ever stored.
  const store: CheckoutStore = {
    get: (key) => inner.get(key),
    set: (key, value, ttl) => (stored.push(value), inner.set(key, value, ttl)),
    setIfAbsent: (key, value, ttl) => (stored.push(value), inner.setIfAbsent(key, value, ttl)),
    delete: (key) => inner.delete(key),
    increment: (key, ttl) => inner.increment(key, ttl),
    reserve: (key, ttl, limit) => inner.reserve(key, ttl, limit),
    release: (key) => inner.release(key),
    lockAndGet: (lock, ttl, key, token) => inner.lockAndGet(lock, ttl, key, token),
    writeAll: (ops, ifHeld) => (
      ops.forEach((op) => 'value' in op && stored.push(op.value)),
      inner.writeAll(ops, ifHeld)
    ),
  };
  const capture = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void logLines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  const app = sandboxAppForSuite(adapter, {
    store,
    logger: { info: capture('info'), warn: capture('warn'), error: capture('error') },
  });

  const body = (number: string, type: string, cvv = '123') => cardBody(number, { type, cvv });

  /** Runs whatever 3-D Secure the sandbox asks for, the way the components and the bank would. */
  async function drive(state: { body: Answer }, otp = '1234', withMethod = true) {
    let current = state.body;
    if (
      current.status === 'authenticating' &&
      current.threeDS.version === 2 &&
      current.threeDS.step === 'method'
    ) {
      if (withMethod) await runMethodStep(current.threeDS.methodUrl);
      current = (await app.post(current.threeDS.confirmUrl, {})).body;
    }
    if (current.status === 'authenticating') {
      const page = await completeChallenge(current.threeDS, otp);
      assert.equal(page.status, 200);
      assert.match(page.html, /3ds-complete/);
      current = (await app.get(`/payments/${current.reference}`)).body;
    }
    return current;
  }

  describe('every sandbox test card through the middleware', () => {
    const approved: [string, string, string?][] = [
      ['4111111111111111', 'visa'],
      ['4550270020557018', 'visa'],
      ['5555555555554444', 'mastercard'],
      ['5471209024048015', 'mastercard'],
      ['2223003122003222', 'mastercard'],
      ['378282246310005', 'amex', '1234'],
      ['30569309025904', 'diners'],
    ];
    for (const [number, type, cvv] of approved) {
      it(`${number.slice(0, 6)}… ${type}: approved without 3-D Secure, amount from the server`, async () => {
        const created = await app.post(
          '/payments',
          { ...body(number, type, cvv), amount: 1 },
          { 'x-amount': '4321' },
        );
        assert.equal(created.status, 200, JSON.stringify(created.body));
        assert.equal(created.body.status, 'approved');
        const record = await app.record(created.body.reference);
        assert.equal(record.amount, 4321);
        assert.equal(
          (await app.get(`/payments/${created.body.reference}`)).body.status,
          'approved',
        );
      });
    }

    for (const [number, code] of [
      ['4000000000000002', 'fin005'],
      ['4000000000009995', 'fin051'],
      ['4111111111111112', 'fin014'],
    ] as const) {
      it(`${number}: declined with ${code}`, async () => {
        const created = await app.post('/payments', body(number, 'visa'));
        assert.equal(created.status, 402);
        assert.equal(created.body.code, 'card_declined');
        assert.equal(created.body.originalErrorCode, code);
      });
    }

    it('4000000000003097: 3-D Secure v1 through the bank page and TermUrl', async () => {
      const created = await app.post('/payments', body('4000000000003097', 'visa'));
      assert.equal(created.body.threeDS.version, 1);
      assert.equal((await drive(created)).status, 'approved');
    });

    it('4000000000003097: a wrong code at the bank fails authentication', async () => {
      const created = await app.post('/payments', body('4000000000003097', 'visa'));
      const final = await drive(created, '0000');
      assert.equal(final.status, 'declined');
    });

    for (const [number, type] of [
      ['4260890000160011', 'visa'],
      ['5286250003061012', 'mastercard'],
      ['4000000000003063', 'visa'],
    ] as const) {
      it(`${number}: v2 method, Step 2, challenge, callback, approved`, async () => {
        const created = await app.post('/payments', body(number, type));
        assert.equal(created.body.threeDS.step, 'method');
        const method = await fetch(created.body.threeDS.methodUrl);
        assert.equal(await method.text(), created.body.threeDS.tdsMethodContent);
        const script = /<script>([\s\S]*?)<\/script>/.exec(
          created.body.threeDS.tdsMethodContent,
        )![1]!;
        const hash = createHash('sha256').update(script).digest('base64');
        const csp = method.headers.get('content-security-policy')!;
        assert.ok(csp.includes(`script-src 'sha256-${hash}'`), csp);
        assert.ok(csp.includes(`form-action https: ${app.sandboxUrl}`), csp);
        assert.equal((await drive(created)).status, 'approved');
        const record = await app.record(created.body.reference);
        assert.ok(record.threeDS.methodReceivedAt, 'the method form reached the sandbox');
      });
    }

    it('4000000000003220: frictionless at Step 2 once the method form arrived', async () => {
      const created = await app.post('/payments', body('4000000000003220', 'visa'));
      await runMethodStep(created.body.threeDS.methodUrl);
      const step2 = await app.post(created.body.threeDS.confirmUrl, {});
      assert.equal(step2.body.status, 'approved');
    });

    it('4000000000003220: a challenge when the method step never ran', async () => {
      const created = await app.post('/payments', body('4000000000003220', 'visa'));
      const step2 = await app.post(created.body.threeDS.confirmUrl, {});
      assert.equal(step2.body.threeDS.step, 'challenge');
      assert.equal((await drive(step2)).status, 'approved');
    });

    it('4000000000003055: challenge at once', async () => {
      const created = await app.post('/payments', body('4000000000003055', 'visa'));
      assert.equal(created.body.threeDS.step, 'challenge');
      assert.equal((await drive(created)).status, 'approved');
    });

    it('4000000000000127: authentication fails at Step 2', async () => {
      const created = await app.post('/payments', body('4000000000000127', 'visa'));
      await runMethodStep(created.body.threeDS.methodUrl);
      const step2 = await app.post(created.body.threeDS.confirmUrl, {});
      assert.equal(step2.status, 402);
      assert.equal(step2.body.code, 'authentication_failed');
    });

    it('4000000000000119: challenge passes, authorization declined at confirm', async () => {
      const created = await app.post('/payments', body('4000000000000119', 'visa'));
      const final = await drive(created);
      assert.equal(final.status, 'declined');
      assert.equal(final.code, 'card_declined');
    });

    it('a replayed callback confirms nothing twice and still answers a harmless page', async () => {
      const created = await app.post('/payments', body('4000000000003055', 'visa'));
      const threeDS = created.body.threeDS;
      const page = await completeChallenge(threeDS, '1234');
      assert.equal(page.status, 200);
      assert.match(
        page.url,
        /\/checkout\/3ds\/[A-Za-z0-9_-]+\.[0-9a-z]+\.[A-Za-z0-9_-]{43}\/callback$/,
      );
      const replay = await fetch(page.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          cres: 'forged',
          threeDSSessionData: threeDS.threeDSSessionData,
        }).toString(),
      });
      assert.equal(replay.status, 200);
      assert.equal((await app.get(`/payments/${created.body.reference}`)).body.status, 'approved');
    });

    it('another payment’s genuine cres, or junk, posted to a callback leaves the payment waiting for its own', async () => {
      const a = await app.post('/payments', body('4000000000003055', 'visa'));
      const b = await app.post('/payments', body('4000000000003055', 'visa'));
      const hopA = await bankAnswer(a.body.threeDS, '1234');
      const hopB = await bankAnswer(b.body.threeDS, '1234');
      const post = (url: string, fields: Record<string, string>) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
        });
      for (const cres of [hopB.fields.cres!, 'junk', `${hopA.fields.cres!}x`]) {
        const foreign = await post(hopA.action, { ...hopA.fields, cres });
        assert.equal(foreign.status, 400);
        assert.match(await foreign.text(), /could not be used/);
        assert.equal((await app.record(a.body.reference)).status, 'THREE_D_SECURE');
        assert.equal(
          (await app.get(`/payments/${a.body.reference}`)).body.status,
          'authenticating',
        );
      }
      const genuine = await post(hopA.action, hopA.fields);
      assert.equal(genuine.status, 200);
      assert.equal((await app.get(`/payments/${a.body.reference}`)).body.status, 'approved');
      assert.equal((await app.record(a.body.reference)).status, 'SETTLED');
      // B's own proof, used above as a forgery, still pays B.
      assert.equal((await post(hopB.action, hopB.fields)).status, 200);
      assert.equal((await app.record(b.body.reference)).status, 'SETTLED');
    });

    it('no card number or CVV reached a log line or the store during all of the above', () => {
      // Every value written, the orders' documents with their payments among them (one write per
      // locked call since issue 35: a payment no longer has a record of its own).
      assert.ok(stored.length > 40);
      assert.ok(stored.some((value) => value.includes('"payment":{')));
      assert.ok(logLines.length > 0);
      const everything = [...stored, ...logLines].join('\n');
      for (const pan of [
        ...approved.map(([n]) => n),
        '4000000000000002',
        '4000000000003097',
        '4000000000003063',
        '4260890000160011',
      ]) {
        assert.ok(!everything.includes(pan), `card ${pan.slice(0, 6)}… leaked`);
      }
      assert.doesNotMatch(everything, /"cvv"|"cvc"/i);
    });
  });
});
