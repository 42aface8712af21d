import {
  TransactionLookupRecordSchema,
  ValidateResponseSchema,
  type PaymentNotification,
  type TransactionLookupRecord,
  type ValidateResponse,
} from '@pg-checkout/protocol';
import { InvalidRequestError, WebhookVerificationError } from './errors.js';
import { expectSuccess, parsed, refusalMessage } from './internal/answers.js';
import { Transport, type CallOptions, type ExchangeListener } from './internal/transport.js';
import type { ReconcileResult } from './outcomes.js';
import { resolveOptions, type GatewayClientOptions } from './options.js';
import { Cards } from './resources/cards.js';
import { Foreign } from './resources/foreign.js';
import { Lookups, merchantReferencePath } from './resources/lookups.js';
import { Payments } from './resources/payments.js';
import { Redirects } from './resources/redirects.js';
import { Subscriptions } from './resources/subscriptions.js';
import { Transfers } from './resources/transfers.js';
import { serializeBody } from './signing.js';

/** The gateway client: one typed method per endpoint, every request signed. */
const CHARGED = new Set(['SETTLED', 'AUTHORIZED']);

export class GatewayClient {
  readonly payments: Payments;
  readonly foreign: Foreign;
  readonly cards: Cards;
  readonly lookups: Lookups;
  readonly redirects: Redirects;
  readonly transfers: Transfers;
  readonly subscriptions: Subscriptions;
  readonly #baseUrl: string;
  private readonly transport: Transport;

  constructor(options: GatewayClientOptions) {
    const resolved = resolveOptions(options);
    this.#baseUrl = resolved.baseUrl;
    this.transport = new Transport(resolved);
    this.payments = new Payments(this.transport);
    this.foreign = new Foreign(this.transport);
    this.cards = new Cards(this.transport);
    this.lookups = new Lookups(this.transport);
    this.redirects = new Redirects(this.transport);
    this.transfers = new Transfers(this.transport);
    this.subscriptions = new Subscriptions(this.transport);
  }

  /**
   * The base URL requests go to (and that signatures cover), as resolved from `baseUrl` or
   * `environment` + `baseUrls`, without a trailing slash. Read-only: a setup check (https in
   * production) reads it, and what it reads is where requests go.
   */
  get baseUrl(): string {
    return this.#baseUrl;
  }

  /**
   * Calls `listener({ method, url, status?, attempt })` after each HTTP exchange this client makes
   * (for tracing: `@pg-checkout/server` puts them on its gateway spans), in the caller's async
   * context; never headers or bodies. Returns the function that removes it.
   */
  onExchange(listener: ExchangeListener): () => void {
    this.transport.listeners.add(listener);
    return () => void this.transport.listeners.delete(listener);
  }

  /** GET /pg/api/v2/util/validate: checks GET signing and credentials; returns the merchant name. */
  async validate(call?: CallOptions): Promise<ValidateResponse> {
    const answer = await this.transport.get('/pg/api/v2/util/validate', call, true);
    return expectSuccess(answer, ValidateResponseSchema, 'validate');
  }

  /**
   * POST /pg/api/v2/util/validate: checks POST signing. A string is sent exactly as given (it must be
   * JSON), which tests signatures over bodies the caller formatted; anything else is serialized.
   */
  async validatePost(body: unknown = {}, call?: CallOptions): Promise<ValidateResponse> {
    let text: string;
    if (typeof body === 'string') {
      try {
        JSON.parse(body);
      } catch {
        throw new InvalidRequestError('validatePost: the body string is not valid JSON', [
          { path: '', message: 'not JSON' },
        ]);
      }
      text = body;
    } else {
      text = serializeBody(body);
    }
    const answer = await this.transport.post('/pg/api/v2/util/validate', text, call, false);
    return expectSuccess(answer, ValidateResponseSchema, 'validatePost');
  }

  /**
   * After a timeout or connection error on a POST, finds out what happened by merchant reference.
   * `found: false` means the gateway has no such transaction: it is safe to try again.
   * Connection problems still throw: then nobody knows yet, so do not retry the payment.
   */
  async reconcile(merchantReference: string, call?: CallOptions): Promise<ReconcileResult> {
    const answer = await this.transport.get(merchantReferencePath(merchantReference), call, true);
    // A refusal (success false: fin025 "record not found", or any other) is the gateway saying it
    // has no such reference; transport failures, 403 and unreadable answers still throw. Read
    // without building the error `byMerchantReference` throws: a fresh order's first lookup lands
    // here on every card payment, and an error's stack costs more than the rest of the answer.
    if (!answer.body.success) return { found: false, message: refusalMessage(answer) };
    return {
      found: true,
      record: parsed(answer, TransactionLookupRecordSchema, 'lookups.byMerchantReference'),
    };
  }

  /**
   * The notify hash covers only the payment reference, so before fulfilling an order check the
   * notification's amount and currency against the gateway's own record, and a SETTLED claim
   * against its status. Returns that record: act on its status, not the notification's.
   */
  async confirmNotification(
    notification: PaymentNotification,
    call?: CallOptions,
  ): Promise<TransactionLookupRecord> {
    const record = await this.lookups.payment(notification.paymentReference, call);
    if (record.amount !== notification.amount || record.currency !== notification.currency) {
      throw new WebhookVerificationError(
        `payment notification for ${notification.paymentReference} says ${notification.amount} ${notification.currency}, ` +
          `the gateway's record says ${record.amount} ${record.currency}`,
        'record-mismatch',
      );
    }
    // A notification that claims a charge must be backed by the gateway's own status.
    if (notification.status === 'SETTLED' && !CHARGED.has(record.status)) {
      throw new WebhookVerificationError(
        `payment notification for ${notification.paymentReference} says SETTLED, the gateway's record says ${record.status}`,
        'record-mismatch',
      );
    }
    return record;
  }
}
