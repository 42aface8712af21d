import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { routeMatcher } from '../../src/http/match-route.js';
import { ROUTES } from '../../src/http/routes.js';

// The route matching both adapters use: method and path under the mount, decoded parameters.
const match = routeMatcher(ROUTES);

describe('routeMatcher', () => {
  it('finds a route by method and path, its parameters decoded', () => {
    const found = match('GET', '/payments/SB%2F1');
    assert.equal(found?.route.path, '/payments/:reference');
    assert.deepEqual(found?.params, { reference: 'SB/1' });
    assert.equal(match('POST', '/payments')?.route.path, '/payments');
    assert.equal(match('GET', '/config/')?.route.path, '/config', 'a trailing slash is allowed');
  });

  it('answers HEAD as GET, and nothing for another method, path or a broken escape', () => {
    assert.equal(match('HEAD', '/config')?.route.method, 'GET');
    assert.equal(match('DELETE', '/payments'), undefined);
    assert.equal(match('GET', '/nope'), undefined);
    assert.equal(match('GET', '/payments/%E0%A4%A'), undefined);
  });
});
