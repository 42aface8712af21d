import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { createSecrets } from '../src/setup/secrets.js';
import { sha256Base64 } from '../src/runtime/crypto.js';

/** Runs `fn` as on a runtime without node:crypto (Workers): the Web Crypto path. */
async function withoutNodeCrypto<T>(fn: () => Promise<T>): Promise<T> {
  const saved = process.getBuiltinModule;
  (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
  try {
    return await fn();
  } finally {
    process.getBuiltinModule = saved;
  }
}

describe('3-D Secure session tokens', () => {
  it('a token past sessionTtlMs is refused; one within it works', async () => {
    let now = 1_000_000;
    const secrets = createSecrets({
      sessionSecret: 'k'.repeat(32),
      sessionTtlMs: 60_000,
      now: () => now,
    });
    const token = await secrets.sessionToken('order-7-2');
    assert.equal(await secrets.merchantReferenceOf(token), 'order-7-2');
    now += 59_000;
    assert.equal(await secrets.merchantReferenceOf(token), 'order-7-2');
    now += 2_000;
    assert.equal(await secrets.merchantReferenceOf(token), undefined);
    const other = createSecrets({
      sessionSecret: 'j'.repeat(32),
      sessionTtlMs: 60_000,
      now: () => 0,
    });
    assert.equal(
      await other.merchantReferenceOf((await other.sessionToken('x-1')).replace(/^[^.]+/, 'eC0y')),
      undefined,
    );
  });
});

describe('the same secrets on every runtime', () => {
  // The formulas as node:crypto computed them before the core ran elsewhere: tokens and client
  // secrets already handed out stay valid across the upgrade and between runtimes.
  const derived = createHmac('sha256', 'gateway-secret')
    .update('pg-checkout/session-key/v1')
    .digest();
  const mac = (label: string, value: string) =>
    createHmac('sha256', derived).update(label).update(value).digest('base64url');
  const attempt = Buffer.from('order-Zoë-1', 'utf8').toString('base64url');
  const expectedSecret = `${attempt}.${mac('pg-checkout/client-secret/v1\0', `PG-9\0${attempt}`)}`;
  const body = `${attempt}.${(1_000 + 60_000).toString(36)}`;
  const expectedToken = `${body}.${mac('pg-checkout/3ds/v1\0', body)}`;

  for (const [name, run] of [
    ['through node:crypto', (fn: () => Promise<void>) => fn()],
    ['through Web Crypto', withoutNodeCrypto],
  ] as const) {
    it(`client secrets and session tokens ${name} match the node:crypto formulas`, async () => {
      await run(async () => {
        const secrets = createSecrets({
          derivedFrom: 'gateway-secret',
          sessionTtlMs: 60_000,
          now: () => 1_000,
        });
        assert.equal(await secrets.clientSecret('PG-9', 'order-Zoë-1'), expectedSecret);
        assert.equal(await secrets.ownsPayment('PG-9', expectedSecret), 'order-Zoë-1');
        assert.equal(await secrets.ownsPayment('PG-8', expectedSecret), undefined);
        assert.equal(await secrets.sessionToken('order-Zoë-1'), expectedToken);
        assert.equal(await secrets.merchantReferenceOf(expectedToken), 'order-Zoë-1');
        assert.equal(
          await secrets.merchantReferenceOf(`${expectedToken.slice(0, -1)}A`),
          undefined,
        );
      });
    });

    it(`a sessionSecret keys the MACs as given, ${name}`, async () => {
      await run(async () => {
        const secrets = createSecrets({ sessionSecret: 'k'.repeat(32), sessionTtlMs: 60_000 });
        const got = await secrets.clientSecret('PG-1', 'o-1');
        const a = Buffer.from('o-1').toString('base64url');
        const want = createHmac('sha256', 'k'.repeat(32))
          .update(`pg-checkout/client-secret/v1\0PG-1\0${a}`)
          .digest('base64url');
        assert.equal(got, `${a}.${want}`);
      });
    });

    it(`CSP script hashes ${name} match node:crypto`, async () => {
      await run(async () => {
        for (const text of ['', 'document.forms[0].submit()', 'é😀'.repeat(100)]) {
          assert.equal(
            await sha256Base64(text),
            createHash('sha256').update(text, 'utf8').digest('base64'),
          );
        }
      });
    });
  }
});
