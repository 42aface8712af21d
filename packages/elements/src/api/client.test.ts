import { expect } from '@open-wc/testing';
import { CheckoutApi } from './client.js';

const answer = (status: number, body: string) => () =>
  Promise.resolve(new Response(body, { status, headers: { 'content-type': 'application/json' } }));

describe('CheckoutApi', () => {
  it('resolves the endpoint against the page and keeps its origin', () => {
    const api = new CheckoutApi('/checkout/', answer(200, '{}'));
    expect(api.endpoint).to.equal(`${location.origin}/checkout`);
    expect(api.origin).to.equal(location.origin);
  });

  it('turns a network failure into a failed state, never a rejection', async () => {
    const api = new CheckoutApi('https://shop.test/checkout', () =>
      Promise.reject(new TypeError('offline')),
    );
    expect(await api.payment('r1')).to.deep.equal({
      success: false,
      status: 'failed',
      code: 'network_error',
      message: '',
    });
  });

  it('keeps the middleware failure code and refuses answers that are not the contract', async () => {
    const limited = new CheckoutApi(
      'https://shop.test/checkout',
      answer(429, '{"success":false,"message":"Slow down","code":"rate_limited"}'),
    );
    const state = await limited.createPayment({
      card: { token: 't' },
      screenWidth: 1,
      screenHeight: 1,
    });
    expect(state).to.deep.include({ status: 'failed', code: 'rate_limited' });
    const html = new CheckoutApi(
      'https://shop.test/checkout',
      answer(502, '<html>Bad gateway</html>'),
    );
    expect(await html.payment('r1')).to.deep.include({ status: 'failed', code: 'http_502' });
    const odd = new CheckoutApi('https://shop.test/checkout', answer(200, '[1,2]'));
    expect(await odd.payment('r1')).to.deep.include({ status: 'failed', code: 'bad_response' });
  });

  it('passes declines through with their codes', async () => {
    const body =
      '{"success":false,"status":"declined","reference":"r1","message":"x","code":"card_declined","originalErrorCode":"fin005"}';
    const api = new CheckoutApi('https://shop.test/checkout', answer(402, body));
    expect(await api.payment('r1')).to.deep.equal(JSON.parse(body));
  });

  it('posts Step 2 confirm only to its own origin', async () => {
    const calls: string[] = [];
    const api = new CheckoutApi('https://shop.test/checkout', (input) => {
      calls.push(String(input));
      return answer(200, '{"success":true,"status":"approved","reference":"r1","message":"ok"}')();
    });
    await api.confirmMethodAt('https://evil.test/steal', 'r1');
    await api.confirmMethodAt('/checkout/payments/r1/3dsv2/confirm', 'r1');
    expect(calls).to.deep.equal([
      'https://shop.test/checkout/payments/r1/3dsv2/confirm',
      'https://shop.test/checkout/payments/r1/3dsv2/confirm',
    ]);
  });

  it('sends the client secret of a reference on its status read and Step 2 confirm, never on create', async () => {
    const calls: { url: string; method: string; secret: string | null }[] = [];
    const api = new CheckoutApi('https://shop.test/checkout', (input, init) => {
      const url = String(input);
      calls.push({
        url,
        method: init?.method ?? 'GET',
        secret: new Headers(init?.headers).get('x-pg-client-secret'),
      });
      const body = url.endsWith('/payments')
        ? '{"success":true,"status":"authenticating","reference":"r1","clientSecret":"s3cret-r1","threeDS":{"version":1,"acsUrl":"https://acs.test","paReq":"p","md":"m","termUrl":"https://shop.test/t","callbackOrigin":"https://shop.test"}}'
        : '{"success":true,"status":"approved","reference":"r1","message":"ok"}';
      return answer(200, body)();
    });
    const created = await api.createPayment({
      card: { token: 't' },
      screenWidth: 1,
      screenHeight: 1,
    });
    expect(created.clientSecret).to.equal('s3cret-r1');
    expect(api.hasSecret('r1')).to.equal(true);
    await api.payment('r1');
    await api.confirmMethod('r1');
    await api.confirmMethodAt('/checkout/payments/r1/3dsv2/confirm', 'r1');
    // another payment's reference gets no secret, and a confirm URL on another origin never sees one
    await api.payment('r2');
    await api.confirmMethodAt('https://evil.test/steal', 'r2');
    // a second create, with a secret now held, still carries none
    await api.createPayment({ card: { token: 't' }, screenWidth: 1, screenHeight: 1 });
    expect(
      calls.map((c) => [c.method, c.url.replace('https://shop.test/checkout', ''), c.secret]),
    ).to.deep.equal([
      ['POST', '/payments', null],
      ['GET', '/payments/r1', 's3cret-r1'],
      ['POST', '/payments/r1/3dsv2/confirm', 's3cret-r1'],
      ['POST', '/payments/r1/3dsv2/confirm', 's3cret-r1'],
      ['GET', '/payments/r2', null],
      ['POST', '/payments/r2/3dsv2/confirm', null],
      ['POST', '/payments', null],
    ]);
  });

  it('keeps the secret of a redirect payment, and forgets one on request', async () => {
    const seen: (string | null)[] = [];
    const api = new CheckoutApi('https://shop.test/checkout', (input, init) => {
      seen.push(new Headers(init?.headers).get('x-pg-client-secret'));
      return answer(
        200,
        String(input).endsWith('/eft')
          ? '{"success":true,"reference":"r9","redirectUrl":"https://pay.test/r9","clientSecret":"s9"}'
          : '{"success":true,"status":"pending","reference":"r9","message":"later"}',
      )();
    });
    const started = await api.startRedirect('eft');
    expect(started).to.deep.include({ reference: 'r9', clientSecret: 's9' });
    await api.payment('r9');
    api.forgetSecret('r9');
    await api.payment('r9');
    expect(seen).to.deep.equal([null, 's9', null]);
  });

  it('turns the 404 for a payment it holds no secret for into a failed state', async () => {
    const api = new CheckoutApi(
      'https://shop.test/checkout',
      answer(404, '{"success":false,"message":"This payment was not found.","code":"not_found"}'),
    );
    expect(await api.payment('r1')).to.deep.include({ status: 'failed', code: 'not_found' });
  });
});
