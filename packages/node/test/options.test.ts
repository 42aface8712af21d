import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Environments, GatewayClient } from '../src/index.js';

const base = { token: 't', secret: 's' };

describe('GatewayClient options', () => {
  it('takes a baseUrl and drops a trailing slash', () => {
    assert.equal(
      new GatewayClient({ ...base, baseUrl: 'http://127.0.0.1:8787/' }).baseUrl,
      'http://127.0.0.1:8787',
    );
  });
  it('baseUrl is read-only: what a setup check reads is where requests go', () => {
    const client = new GatewayClient({ ...base, baseUrl: 'https://gateway.example' });
    assert.throws(() => {
      (client as { baseUrl: string }).baseUrl = 'http://10.0.0.5';
    }, TypeError);
    assert.equal(client.baseUrl, 'https://gateway.example');
    assert.ok(!Object.keys(client).includes('baseUrl'), 'not an own, writable field');
  });
  it('takes a named environment with its base URL', () => {
    const client = new GatewayClient({
      ...base,
      environment: Environments.DEVELOPMENT,
      baseUrls: {
        production: 'https://gateway.example',
        development: 'https://dev.gateway.example',
      },
    });
    assert.equal(client.baseUrl, 'https://dev.gateway.example');
  });
  it('says what is wrong', () => {
    assert.throws(
      () => new GatewayClient({ ...base } as never),
      /`baseUrl` \(or `environment` with `baseUrls`\) is required/,
    );
    assert.throws(
      () => new GatewayClient({ ...base, environment: 'production' }),
      /baseUrls.production/,
    );
    assert.throws(
      () => new GatewayClient({ ...base, environment: 'staging' as never, baseUrls: {} }),
      /'production' or 'development'/,
    );
    assert.throws(() => new GatewayClient({ ...base, baseUrl: 'gateway' }), /absolute URL/);
    assert.throws(
      () => new GatewayClient({ ...base, baseUrl: 'http://x', environment: 'production' }),
      /not both/,
    );
    assert.throws(
      () => new GatewayClient({ token: 't', baseUrl: 'http://x' } as never),
      /`secret` is required/,
    );
    assert.throws(
      () => new GatewayClient({ secret: 's', baseUrl: 'http://x' } as never),
      /`token` is required/,
    );
    assert.throws(
      () => new GatewayClient({ ...base, baseUrl: 'http://x', timeoutMs: 0 }),
      /timeoutMs/,
    );
    assert.throws(
      () => new GatewayClient({ ...base, baseUrl: 'http://x', retries: -1 }),
      /retries/,
    );
  });
  it('suggests the option an unknown key was meant to be', () => {
    assert.throws(
      () => new GatewayClient({ ...base, baseUrl: 'http://x', secretKey: 'k' } as never),
      /unknown option `secretKey`, did you mean `secret`\?/,
    );
    assert.throws(
      () => new GatewayClient({ ...base, baseUrl: 'http://x', timeout: 5 } as never),
      /did you mean `timeoutMs`\?/,
    );
  });
});
