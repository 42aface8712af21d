import assert from 'node:assert/strict';

/** A browser as far as the shop can tell: a cookie jar, the shop's JSON routes, a card payment. */
export class Shopper {
  cookie = '';
  constructor(private readonly url: string) {}

  async call(path: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(this.url + path, {
      ...init,
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(init.headers as Record<string, string> | undefined),
      },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      if (pair!.startsWith('demo_cart=')) this.cookie = pair!;
    }
    return res;
  }

  async setQuantity(quantity: number): Promise<{ order: string; amount: number; status: string }> {
    const res = await this.call('/api/cart', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ quantity }),
    });
    assert.equal(res.status, 200);
    return (await res.json()) as { order: string; amount: number; status: string };
  }

  /** POST {mount}/payments with a card, as the drop-in sends it. */
  // The answer is read field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async pay(number: string): Promise<any> {
    const res = await this.call('/checkout/payments', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: this.url },
      body: JSON.stringify({
        card: {
          number,
          cardHolder: 'Thandi Nkosi',
          expiryMonth: 12,
          expiryYear: new Date().getUTCFullYear() + 3,
          cvv: '123',
          type: 'visa',
        },
        screenWidth: 1100,
        screenHeight: 900,
      }),
    });
    return res.json();
  }

  async result(): Promise<Record<string, unknown> & { state: string }> {
    return (await this.call('/api/payment-result')).json() as Promise<
      Record<string, unknown> & { state: string }
    >;
  }
}
