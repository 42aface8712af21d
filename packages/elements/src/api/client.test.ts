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
});
