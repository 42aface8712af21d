import assert from 'node:assert/strict';
import { cardBody } from './cards.js';

/**
 * A browser as far as the demo shop can tell: a cookie jar, the shop's JSON routes, a card payment.
 * `shop` is the shop's URL, or a getter for a shop the test restarts between calls.
 */
export class Shopper {
  cookie = '';
  constructor(
    private readonly shop: string | (() => { url: string }),
    private readonly headers: Record<string, string> = {},
  ) {}

  get url(): string {
    return typeof this.shop === 'string' ? this.shop : this.shop().url;
  }

  async call(path: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(this.url + path, {
      ...init,
      headers: {
        ...this.headers,
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

  async cart(): Promise<{ quantity: number; amount: number; status: string; order?: string }> {
    return (await (await this.call('/api/cart')).json()) as {
      quantity: number;
      amount: number;
      status: string;
      order?: string;
    };
  }

  async setQuantity(
    quantity: number,
  ): Promise<{ quantity: number; amount: number; status: string; order: string }> {
    const res = await this.call('/api/cart', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ quantity }),
    });
    assert.equal(res.status, 200);
    return (await res.json()) as {
      quantity: number;
      amount: number;
      status: string;
      order: string;
    };
  }

  /** POST {mount}/payments with a card, as the drop-in sends it. */
  // The answer is read field by field (its 3-D Secure action too).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async pay(number = '4111111111111111'): Promise<any> {
    const res = await this.call('/checkout/payments', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: this.url },
      body: JSON.stringify(
        cardBody(number, { cardHolder: 'Thandi Nkosi' }, { screenWidth: 1100, screenHeight: 900 }),
      ),
    });
    return res.json();
  }

  /** POST {mount}/hosted, as the drop-in's "pay on the gateway's page" does: the payment it opened. */
  async startHosted(): Promise<{ reference: string; clientSecret: string }> {
    const res = await this.call('/checkout/hosted', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: this.url },
      body: '{}',
    });
    const started = (await res.json()) as { reference: string; clientSecret: string };
    if (!started.reference)
      throw new Error(`no hosted payment started: ${JSON.stringify(started)}`);
    return started;
  }

  async result(): Promise<
    Record<string, unknown> & { state: string; amount?: number; currency?: string }
  > {
    return (await this.call('/api/payment-result')).json() as Promise<
      Record<string, unknown> & { state: string; amount?: number; currency?: string }
    >;
  }
}
