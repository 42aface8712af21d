import type {
  BrowserRoute,
  FilledPath,
  RouteAnswer,
  RouteBody,
  RouteMethod,
  RoutePattern,
} from '@pg-checkout/protocol/browser';
import type { RedirectMethod } from '@pg-checkout/protocol/vocabulary';
import type {
  ApiFailure,
  CheckoutConfig,
  OrderStatusAnswer,
  PaymentRequest,
  PaymentState,
  RedirectResult,
  SavedCard,
} from './types.js';
import type { DropInCode } from './codes.js';

/** A call of one route of the map: method, path with its parameters filled (or the middleware's URL of it), body. */
type Call<R extends BrowserRoute> = [
  method: RouteMethod<R>,
  path: FilledPath<RoutePattern<R>> | `http${string}`,
  ...rest: RouteBody<R> extends undefined
    ? [body?: undefined, owned?: string]
    : [body: RouteBody<R>, owned?: string],
];

/** The routes that answer a `PaymentState`. */
type PaymentRoute =
  | 'POST /payments'
  | 'POST /payments/:reference/3dsv2/confirm'
  | 'POST /payments/:reference/cancel'
  | 'GET /payments/:reference';

/** Codes this client produces itself when the middleware could not be reached or answered nonsense. */
export const ClientErrorCode = {
  NETWORK: 'network_error',
  BAD_RESPONSE: 'bad_response',
} as const satisfies Record<string, DropInCode>;

type Fetch = typeof fetch;

/** The header that proves this browser created the payment (docs/contracts.md, client secret). */
export const CLIENT_SECRET_HEADER = 'X-PG-Client-Secret';

const failure = (code: string): ApiFailure => ({ success: false, code, message: '' });

/**
 * Talks to the pg-checkout middleware's browser routes. Never throws: every problem comes back as a
 * `success: false` value with a stable `code`, which the components turn into a localized message.
 */
export class CheckoutApi {
  readonly endpoint: string;
  readonly origin: string;
  private readonly fetchImpl: Fetch;
  /** Client secrets by reference: kept here only, never in events, attributes or URLs. */
  private readonly secrets = new Map<string, string>();

  constructor(endpoint: string, fetchImpl: Fetch = (...args) => globalThis.fetch(...args)) {
    const base = new URL(endpoint, globalThis.location?.href);
    this.endpoint = base.href.replace(/\/+$/, '');
    this.origin = base.origin;
    this.fetchImpl = fetchImpl;
  }

  config(): Promise<CheckoutConfig | ApiFailure> {
    return this.request<'GET /config'>('GET', '/config');
  }

  /** Keeps the secret that proves ownership of `reference`, for status reads and Step 2 confirm. */
  rememberSecret(reference: string, clientSecret: string): void {
    if (reference && clientSecret) this.secrets.set(reference, clientSecret);
  }

  /** True when this object holds the secret of `reference`. */
  hasSecret(reference: string): boolean {
    return this.secrets.has(reference);
  }

  forgetSecret(reference: string): void {
    this.secrets.delete(reference);
  }

  async createPayment(body: PaymentRequest): Promise<PaymentState> {
    const state = await this.paymentRequest<'POST /payments'>('POST', '/payments', body);
    this.keepSecretOf(state);
    return state;
  }

  confirmMethod(reference: string): Promise<PaymentState> {
    return this.paymentRequest<'POST /payments/:reference/3dsv2/confirm'>(
      'POST',
      `/payments/${encodeURIComponent(reference)}/3dsv2/confirm`,
      {},
      reference,
    );
  }

  /** Step 2 confirm through the URL the middleware handed out with the method action. */
  confirmMethodAt(confirmUrl: string, reference: string): Promise<PaymentState> {
    const url = new URL(confirmUrl, `${this.endpoint}/`);
    // Only ever POST to our own middleware, whatever a response says.
    if (url.origin !== this.origin) return this.confirmMethod(reference);
    return this.paymentRequest<'POST /payments/:reference/3dsv2/confirm'>(
      'POST',
      url.href as `http${string}`,
      {},
      reference,
    );
  }

  /** The shopper closed the bank check: the middleware ends it unless the bank's answer came first. */
  cancelPayment(reference: string): Promise<PaymentState> {
    return this.paymentRequest<'POST /payments/:reference/cancel'>(
      'POST',
      `/payments/${encodeURIComponent(reference)}/cancel`,
      {},
      reference,
    );
  }

  /** The authoritative state; without this payment's secret the middleware answers 404 `not_found`. */
  payment(reference: string): Promise<PaymentState> {
    return this.paymentRequest<'GET /payments/:reference'>(
      'GET',
      `/payments/${encodeURIComponent(reference)}`,
      undefined,
      reference,
    );
  }

  /** What became of the order, for an answer that was lost; `retryAfter` is the answer's header, in seconds. */
  async order(): Promise<OrderStatusAnswer | ApiFailure> {
    const answer: OrderStatusAnswer | ApiFailure = await this.request<'GET /order'>(
      'GET',
      '/order',
    );
    if (answer.success && 'payment' in answer) this.keepSecretOf(answer.payment);
    return answer;
  }

  async startRedirect(
    method: RedirectMethod,
    shown?: PaymentRequest['shown'],
  ): Promise<RedirectResult | ApiFailure> {
    const answer: RedirectResult | ApiFailure = await this.request<`POST /${RedirectMethod}`>(
      'POST',
      `/${method}`,
      { shown },
    );
    if (answer.success) this.keepSecretOf(answer);
    return answer;
  }

  async cards(): Promise<SavedCard[] | ApiFailure> {
    const answer = await this.request<'GET /cards'>('GET', '/cards');
    return answer.success ? answer.cards : answer;
  }

  private keepSecretOf(answer: { reference?: string | undefined; clientSecret?: unknown }): void {
    if (answer.reference && typeof answer.clientSecret === 'string')
      this.rememberSecret(answer.reference, answer.clientSecret);
  }

  private async paymentRequest<R extends PaymentRoute>(...call: Call<R>): Promise<PaymentState> {
    const answer: PaymentState | ApiFailure = await this.request<R>(...call);
    if (answer.success || 'status' in answer) return answer;
    return { success: false, status: 'failed', code: answer.code, message: answer.message };
  }

  /** `owned`: the reference whose secret goes along (sent only when this object holds one). */
  private request<R extends BrowserRoute>(...call: Call<R>): Promise<RouteAnswer<R> | ApiFailure>;
  private async request(
    method: string,
    path: string,
    body?: unknown,
    owned?: string,
  ): Promise<{ success: true } | ApiFailure> {
    const url = /^https?:/.test(path) ? path : this.endpoint + path;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const secret = owned === undefined ? undefined : this.secrets.get(owned);
    if (secret) headers[CLIENT_SECRET_HEADER] = secret;
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        credentials: 'same-origin',
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
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
    const result = parsed as { success: true } | ApiFailure;
    const retryAfter = Number(response.headers.get('retry-after'));
    if (retryAfter > 0) (result as { retryAfter?: number }).retryAfter = retryAfter;
    if (!result.success && typeof (result as ApiFailure).code !== 'string') {
      return failure(response.ok ? ClientErrorCode.BAD_RESPONSE : `http_${response.status}`);
    }
    return result;
  }
}
