import type {
  ApiFailure,
  CheckoutConfig,
  PaymentRequest,
  PaymentState,
  RedirectResult,
  SavedCard,
} from './types.js';

/** Codes this client produces itself when the middleware could not be reached or answered nonsense. */
export const ClientErrorCode = {
  NETWORK: 'network_error',
  BAD_RESPONSE: 'bad_response',
} as const;

type Fetch = typeof fetch;

const failure = (code: string): ApiFailure => ({ success: false, code, message: '' });

/**
 * Talks to the pg-checkout middleware's browser routes. Never throws: every problem comes back as a
 * `success: false` value with a stable `code`, which the components turn into a localized message.
 */
export class CheckoutApi {
  readonly endpoint: string;
  readonly origin: string;
  private readonly fetchImpl: Fetch;

  constructor(endpoint: string, fetchImpl: Fetch = (...args) => globalThis.fetch(...args)) {
    const base = new URL(endpoint, globalThis.location?.href);
    this.endpoint = base.href.replace(/\/+$/, '');
    this.origin = base.origin;
    this.fetchImpl = fetchImpl;
  }

  config(): Promise<CheckoutConfig | ApiFailure> {
    return this.request('GET', '/config');
  }

  createPayment(body: PaymentRequest): Promise<PaymentState> {
    return this.paymentRequest('POST', '/payments', body);
  }

  confirmMethod(reference: string): Promise<PaymentState> {
    return this.paymentRequest(
      'POST',
      `/payments/${encodeURIComponent(reference)}/3dsv2/confirm`,
      {},
    );
  }

  /** Step 2 confirm through the URL the middleware handed out with the method action. */
  confirmMethodAt(confirmUrl: string, reference: string): Promise<PaymentState> {
    const url = new URL(confirmUrl, `${this.endpoint}/`);
    // Only ever POST to our own middleware, whatever a response says.
    if (url.origin !== this.origin) return this.confirmMethod(reference);
    return this.paymentRequest('POST', url.href, {});
  }

  payment(reference: string): Promise<PaymentState> {
    return this.paymentRequest('GET', `/payments/${encodeURIComponent(reference)}`);
  }

  startRedirect(method: 'hosted' | 'eft' | 'redirect'): Promise<RedirectResult | ApiFailure> {
    return this.request('POST', `/${method}`, {});
  }

  async cards(): Promise<SavedCard[] | ApiFailure> {
    const answer = await this.request<{ success: true; cards: SavedCard[] }>('GET', '/cards');
    return answer.success ? answer.cards : answer;
  }

  private async paymentRequest(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<PaymentState> {
    const answer = await this.request<PaymentState>(method, path, body);
    if (answer.success || 'status' in answer) return answer;
    return { success: false, status: 'failed', code: answer.code, message: answer.message };
  }

  private async request<T extends { success: boolean }>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T | ApiFailure> {
    const url = /^https?:/.test(path) ? path : this.endpoint + path;
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        credentials: 'same-origin',
        headers:
          body === undefined
            ? { accept: 'application/json' }
            : { 'content-type': 'application/json', accept: 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      return failure(ClientErrorCode.NETWORK);
    }
    let parsed: unknown;
    try {
      parsed = await response.json();
    } catch {
      return failure(response.ok ? ClientErrorCode.BAD_RESPONSE : `http_${response.status}`);
    }
    if (
      typeof parsed !== 'object' ||
      parsed === null ||
      typeof (parsed as { success?: unknown }).success !== 'boolean'
    ) {
      return failure(ClientErrorCode.BAD_RESPONSE);
    }
    const result = parsed as T | ApiFailure;
    if (!result.success && typeof (result as ApiFailure).code !== 'string') {
      return failure(response.ok ? ClientErrorCode.BAD_RESPONSE : `http_${response.status}`);
    }
    return result;
  }
}
