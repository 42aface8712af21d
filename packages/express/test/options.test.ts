import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createCheckout, type CheckoutOptions } from '../src/index.js';
import { GatewayClient } from '@pg-checkout/node';
import { FakeGateway } from '@pg-checkout/test-helpers/fake-gateway';

const base = (): CheckoutOptions => ({
  gateway: { token: 't', secret: 's', baseUrl: 'http://127.0.0.1:1' },
  publicUrl: 'https://shop.test/checkout',
  resolveOrder: () => ({ amount: 100, currency: 'ZAR', reference: 'o-1' }),
});

const build = (patch: Record<string, unknown>) => () =>
  createCheckout({ ...base(), ...patch } as CheckoutOptions);

describe('createCheckout options', () => {
  it('accepts credentials or a client, and returns a router', () => {
    assert.equal(typeof createCheckout(base()), 'function');
    assert.equal(
      typeof createCheckout({
        ...base(),
        gateway: new FakeGateway(),
        webhookSecret: 'whsec',
      }),
      'function',
    );
  });

  it('needs webhookSecret with a client (webhooks would answer 503 otherwise), and a long enough sessionSecret', () => {
    assert.throws(
      build({ gateway: new FakeGateway() }),
      /`webhookSecret` is required when `gateway` is a client/,
    );
    assert.throws(
      build({ sessionSecret: 'short' }),
      /`sessionSecret` must be at least 32 characters/,
    );
  });

  it('names an unknown option and suggests the right one', () => {
    assert.throws(build({ secretKey: 'x' }), {
      message: 'createCheckout: unknown option `secretKey`, did you mean `webhookSecret`?',
    });
    assert.throws(
      build({ publicURL: 'x' }),
      /unknown option `publicURL`, did you mean `publicUrl`\?/,
    );
    assert.throws(build({ gateway: { token: 't', secretKey: 's' } }), {
      message: 'createCheckout: unknown option `gateway.secretKey`, did you mean `gateway.secret`?',
    });
    assert.throws(build({ zzzzzzzzzz: 1 }), {
      message: 'createCheckout: unknown option `zzzzzzzzzz`',
    });
  });

  it('says when the secret is missing', () => {
    assert.throws(
      build({ gateway: { token: 't' } }),
      /missing secret: `gateway.secret` is required/,
    );
    assert.throws(build({ gateway: { token: 't', secret: '' } }), /gateway/);
  });

  it('requires https URLs in production', () => {
    assert.throws(
      build({ environment: 'production', publicUrl: 'http://shop.test/checkout' }),
      /`publicUrl` must use https in production/,
    );
    assert.doesNotThrow(build({ environment: 'production' }));
  });

  it('production: the client instance of "Mount it" must send over https (loopback excepted)', () => {
    // The README's shape: a GatewayClient built from the environment, passed as `gateway`.
    const mountIt = (baseUrl: string) => () =>
      createCheckout({
        ...base(),
        environment: 'production',
        gateway: new GatewayClient({ token: 't', secret: 's', baseUrl }),
        webhookSecret: 's',
      });
    assert.doesNotThrow(mountIt('https://gateway.example'));
    assert.doesNotThrow(mountIt('http://127.0.0.1:8787'));
    assert.throws(
      mountIt('http://10.1.2.3:8787'),
      /`gateway\.baseUrl` must use https in production: the client given as `gateway` sends to http:\/\/10\.1\.2\.3:8787/,
    );
  });

  it('refuses wrong types with the field path', () => {
    assert.throws(
      build({ publicUrl: '/checkout' }),
      /`publicUrl` must be an absolute http\(s\) URL/,
    );
    assert.throws(build({ resolveOrder: 'nope' }), /`resolveOrder` must be a function/);
    assert.throws(build({ rateLimit: { perIp: -1 } }), /`rateLimit.perIp`/);
    assert.throws(build({ methods: ['card', 'bitcoin'] }), /`methods.1`/);
    assert.throws(build({ store: {} }), /`store.get` must be a function/);
    assert.throws(build({ bodyLimit: 'lots' }), /`bodyLimit`.*"16kb"/);
    assert.throws(build({ bodyLimit: 0 }), /`bodyLimit`/);
    assert.throws(build({ reconcileGraceMs: -1 }), /`reconcileGraceMs`/);
    assert.throws(() => createCheckout(undefined as never), /options object is required/);
  });

  it('needs redirectUrls for the redirect methods', () => {
    assert.throws(
      build({ methods: ['card', 'eft'] }),
      /`redirectUrls` \{ success, cancel, error \} is required/,
    );
    assert.doesNotThrow(
      build({
        methods: ['eft'],
        redirectUrls: {
          success: 'https://s.test/ok',
          cancel: 'https://s.test/c',
          error: 'https://s.test/e',
        },
      }),
    );
  });
});

describe('a missing or wrong gateway setting', () => {
  it('names the setting and the fix', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { gateway: undefined },
        /`gateway` is missing: pass a GatewayClient .* or \{ token, secret, baseUrl \}/,
      ],
      [
        { gateway: { token: 't', secret: 's' } },
        /missing base URL: `gateway\.baseUrl` is required .*PG_BASE_URL/,
      ],
      [
        { gateway: { secret: 's', baseUrl: 'http://127.0.0.1:1' } },
        /`gateway\.token` is required .*PG_TOKEN/,
      ],
      [
        { gateway: { token: 't', secret: 's', baseUrl: 'http://127.0.0.1:1/pg/api' } },
        /`gateway\.baseUrl` must be the host only, without \/pg\/api/,
      ],
    ];
    for (const [patch, message] of cases) assert.throws(build(patch), message);
  });
});
