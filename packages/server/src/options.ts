import type { PaymentNotification, PayoutWebhook } from '@pg-checkout/protocol';
import type { PaymentMethod } from '@pg-checkout/protocol/vocabulary';
import type { CheckoutStore } from './stores/store.js';
import type { CheckoutGateway, Consumer, LookupRecord, RedirectUrls } from './gateway/port.js';
import type { CheckoutLogger } from './logger.js';
import type { PaymentState } from './payment-state.js';

/** What `resolveOrder(req, { method })` answers: the money side of a payment, decided on the server only. */
export interface CheckoutOrder {
  /** Integer cents, > 0. */
  amount: number;
  /** ISO currency code, e.g. `'ZAR'`. Card payments are ZAR; other currencies use the hosted page. */
  currency: string;
  /** The merchant's order reference (max 80 characters; an attempt suffix is appended per try). */
  reference: string;
  subscription?:
    | {
        reference: string;
        interval?: string | undefined;
        trialDays?: number | undefined;
        firstname?: string | undefined;
        lastname?: string | undefined;
        email?: string | undefined;
      }
    | undefined;
  affiliateMerchantId?: number | undefined;
  consumer?: Consumer | undefined;
}

/** Gateway credentials, when the middleware should build its own client. */
export interface GatewayCredentials {
  token: string;
  secret: string;
  /** Base URL of the gateway for the environment in use (e.g. the sandbox's). Required: the spec names no hosts. */
  baseUrl: string;
  /** Client timeout per call. Default `30_000`. */
  timeoutMs?: number | undefined;
}

/** A way to pay the middleware offers: one of `PAYMENT_METHODS` (`@pg-checkout/protocol/vocabulary`). */
export type PaymentMethodName = PaymentMethod;

/**
 * How a payment is made, as `resolveOrder` is told it: a method of {@link PaymentMethodName}, with
 * a saved card's payment (`'saved_card'`) apart from one with card details (`'card'`).
 */
export type PaymentMethodKind = PaymentMethodName | 'saved_card';

/** What the core tells `resolveOrder` besides the request (docs/contracts.md, "The method told to `resolveOrder`"). */
export interface ResolveOrderContext {
  /**
   * The method the request is about, from the route matched, never from the browser's body:
   * the one paying (`POST /payments` card or saved card, `/hosted`, `/redirect`, `/eft`), or the
   * one a read, confirm or cancel of a payment was started with. `undefined` when no method is
   * chosen yet (`GET /config`, `GET /order`): the order as the page shows it.
   */
  method: PaymentMethodKind | undefined;
}

/**
 * A payment that reached a final or pending state, as handed to lifecycle hooks: at least once,
 * so a hook must be idempotent by `reference` (it may be called again after a crash or a lost store).
 */
export interface PaymentEvent {
  reference: string;
  /** The attempt's merchant reference at the gateway: `orderReference` plus `-n`. */
  merchantReference: string;
  /** The merchant's order reference, as `resolveOrder` gave it. */
  orderReference: string;
  amount: number;
  currency: string;
  state: PaymentState;
}

/** What `reconcile()` looks at: gateway transactions created in `[since, until]`. */
export interface ReconcileOptions {
  /** Default: 24 hours before `until`. */
  since?: Date | number;
  /** Default: now. */
  until?: Date | number;
  /** Most items per source (outbox and open attempts; the gateway's list) in one run. Default `100`. */
  limit?: number;
}

/** What one `reconcile()` run did. */
export interface ReconcileSummary {
  /** Items looked at: outbox entries, open attempts, the gateway's transactions in the window. */
  checked: number;
  /** Hooks that resolved in this run. */
  delivered: number;
  /** Hooks that threw, or gateway questions that got no answer: kept for the next run. */
  failed: number;
  /** Calls made to the gateway. */
  gatewayCalls: number;
  /** Another run (on this or another instance) held the sweep's lock: nothing was done. */
  busy?: true;
}

/** A verified webhook, typed by @pg-checkout/protocol. The notify hash covers only the reference: check amount and status with `client.confirmNotification` before fulfilling. */
export type WebhookEvent =
  | {
      type: 'payment';
      /** What was posted; only its reference is covered by the hash. */
      payload: PaymentNotification;
      /** The gateway's own lookup of `payload.paymentReference`: act on this amount and status. */
      record: LookupRecord;
      /**
       * The merchant's order reference of the notified payment (its attempt's merchant reference
       * without the `-n` suffix), `undefined` when this middleware did not make the payment.
       */
      orderReference: string | undefined;
    }
  | { type: 'payout'; payload: PayoutWebhook };

/** An order charged one amount that now asks for another: handed to `onOrderChanged`. */
export interface OrderChangedEvent {
  orderReference: string;
  /** The gateway reference of the payment that was charged. */
  reference: string;
  merchantReference: string;
  /** What the gateway charged. */
  charged: { amount: number; currency: string };
  /** What `resolveOrder` answers now. */
  order: { amount: number; currency: string };
}

/** A refund the gateway completed, handed to `onRefundCompleted` (at least once: idempotent by `merchantReference`). */
export interface RefundEvent {
  /** The gateway reference of the payment refunded. */
  paymentReference: string;
  /** The refund's slot reference at the gateway: `<paymentReference>~r<i>` (one per refund of the payment). */
  merchantReference: string;
  /** The caller's idempotency key of `checkout.refund`, when the core's book has it. */
  key?: string | undefined;
  /** The refund's own gateway reference, when the gateway's record was read. */
  reference?: string | undefined;
  /** The merchant's order reference, when known. */
  orderReference?: string | undefined;
  /** Cents refunded, > 0. */
  amount: number;
  currency: string;
}

/** Limits per client and per instance; see `rateLimit`. */
export interface RateLimitOptions {
  /** Length of a counting window. Default `60_000`. */
  windowMs?: number | undefined;
  /** Payment starts (card, Step 2, hosted, redirect, EFT) per client per window. Default `20`. */
  perIp?: number | undefined;
  /** Payment starts per identified shopper per window. Default `10`. */
  perShopper?: number | undefined;
  /**
   * Most payment starts one instance serves per window, whoever sends them (counted in process).
   * Saved-card changes get a tenth of it (at least 10), status and order reads five times it. Default `600`.
   */
  global?: number | undefined;
  /** Status and order reads that ask the gateway, per client per window. Default `120`. */
  reads?: number | undefined;
  /** IPv6 clients are counted by this network prefix (one home line has a /64). Default `64`. */
  ipv6Prefix?: number | undefined;
  /**
   * The card-tester stop: cards the gateway refused, counted per order, per signed-in shopper and
   * per client over `windowMs`; a scope at its limit gets 429 `too_many_declines` on card payments,
   * and `onSuspectedCardTesting` runs. `false` turns it off. Defaults in {@link DeclineLimitOptions}.
   */
  declines?: false | DeclineLimitOptions | undefined;
}

/** Declined cards allowed per scope and window before card payments are refused; see `rateLimit.declines`. */
export interface DeclineLimitOptions {
  /** Declines per order (the merchant's order reference). Default `10`. */
  perOrder?: number | undefined;
  /** Declines per shopper `savedCards.shopperId` identified. Default `10`. */
  perShopper?: number | undefined;
  /** Declines per client (IPv6 by its `ipv6Prefix` network); several shoppers may share one address. Default `30`. */
  perIp?: number | undefined;
  /** Length of a counting window. Default `3_600_000` (one hour). */
  windowMs?: number | undefined;
}

/** One report of a payment page, as `onPageIntegrityReport` gets it: normalized, every field bounded. */
export interface PageIntegrityReport {
  /** A CSP (or Trusted Types) violation, an `Integrity-Policy` refusal, or a script the page's reporter saw fail. */
  kind: 'csp-violation' | 'integrity-violation' | 'script-error';
  /** The page's origin and path (no query, no fragment), at most 512 characters. */
  documentUrl: string;
  /** The refused resource's origin and path, or `inline`, `eval`, `trusted-types-sink`...; '' when none. */
  blockedUrl: string;
  /** The directive at fault (`script-src-elem`, `require-trusted-types-for`), '' when none; at most 64. */
  directive: string;
  /** `enforce` (refused) or `report` (report-only). */
  disposition: 'enforce' | 'report';
  /** When the middleware received it (epoch ms). */
  receivedAt: number;
}

/** A scope that reached its decline limit: handed to `onSuspectedCardTesting`. Counts only, no card data. */
export interface CardTestingEvent {
  /** What reached its limit: one order, one signed-in shopper, or one client (address or IPv6 network). */
  scope: 'order' | 'shopper' | 'client';
  /** The merchant's order reference of the decline that reached the limit. */
  orderReference: string;
  /** Declines counted in this scope's window (its limit). */
  declines: number;
  /** The window they were counted over. */
  windowMs: number;
}

/**
 * Options of `createCheckout()` (Express) and `createCheckoutHandler()` (Fetch). `Req` is the
 * request the adapter hands to your hooks: Express's `Request`, or the Fetch API `Request`.
 */
export interface CheckoutOptions<Req = unknown> {
  /** A `GatewayClient` from `@pg-checkout/node`, or credentials to build one. Required. */
  gateway: CheckoutGateway | GatewayCredentials;
  /**
   * Key (at least 32 characters) of the client secrets that prove which browser created a payment
   * and of the 3-D Secure session tokens. The same on every instance. Default: derived from
   * `gateway.secret` (credentials) or else `webhookSecret`; one of the three is required.
   */
  sessionSecret?: string | undefined;
  /** Secret for webhook hashes. Default: `gateway.secret` when credentials are given; required otherwise if webhooks are used. */
  webhookSecret?: string | undefined;
  /** Absolute URL where this router is mounted (e.g. `https://shop.example/checkout`); used for callbackUrl, TermUrl, notify. Required; https in production. */
  publicUrl: string;
  /**
   * The order for this request: amount, currency, reference. Required. The browser never sets money.
   * `context.method` says which method pays (or was paid with), for a shop that prices per method;
   * a one-argument `(req) => order` is fine.
   */
  resolveOrder: (req: Req, context: ResolveOrderContext) => CheckoutOrder | Promise<CheckoutOrder>;
  /** Origins allowed to call the state-changing routes. Default: the request's own origin and `publicUrl`'s. */
  allowedOrigins?: string[] | undefined;
  /** Where sessions, attempts, de-duplication and limits live. Default: a `MemoryStore` (one instance only). */
  store?: CheckoutStore | undefined;
  /**
   * Limits on every route that creates state or calls the gateway, per client (IPv6 by network
   * prefix), per shopper and per instance, or `false` (tests only). Defaults in {@link RateLimitOptions}.
   */
  rateLimit?: false | RateLimitOptions | undefined;
  /** Saved cards, enabled when given. `shopperId` answers who is signed in (undefined: nobody). */
  savedCards?:
    | {
        shopperId: (req: Req) => string | undefined | Promise<string | undefined>;
        /** Whether this shopper may store a card. Default: any identified shopper. */
        maySaveCard?: ((req: Req) => boolean | Promise<boolean>) | undefined;
      }
    | undefined;
  /** Payment methods offered. Default `['card']`. */
  methods?: PaymentMethodName[] | undefined;
  /** Where the hosted page, redirect and EFT send the shopper back. Required when `methods` has any of them. */
  redirectUrls?: Omit<RedirectUrls, 'notify'> | undefined;
  /** Capture card payments at once. Default `true`. */
  autoExecute?: boolean | undefined;
  onPaymentCompleted?: ((event: PaymentEvent) => void | Promise<void>) | undefined;
  onPaymentFailed?: ((event: PaymentEvent) => void | Promise<void>) | undefined;
  onPaymentPending?: ((event: PaymentEvent) => void | Promise<void>) | undefined;
  /**
   * A charged order whose amount or currency changed after the charge (or while its challenge was
   * open). The shopper is told, nothing more is charged; you decide (refund, restore, or bill the
   * difference as a new order). Runs once per payment and order amount.
   */
  onOrderChanged?: ((event: OrderChangedEvent) => void | Promise<void>) | undefined;
  /**
   * A card tester suspected: an order, shopper or client reached its decline limit
   * (`rateLimit.declines`); its card payments are refused until the window ends. Runs once per
   * scope and window, not awaited by the shopper's request; counts only, never card data.
   */
  onSuspectedCardTesting?: ((event: CardTestingEvent) => void | Promise<void>) | undefined;
  /**
   * A refund made with `checkout.refund()` that the gateway completed (a pending one once it
   * completes). At least once through the outbox, like the payment hooks: idempotent by
   * `merchantReference`; a throw is retried and swept, the refund stands.
   */
  onRefundCompleted?: ((event: RefundEvent) => void | Promise<void>) | undefined;
  /** A verified, de-duplicated webhook. Throwing makes the route answer 5xx so the gateway retries. */
  onWebhook?: ((event: WebhookEvent) => void | Promise<void>) | undefined;
  /**
   * A report from a payment page (`POST {mount}/reports`): a CSP or Trusted Types violation, a script
   * refused for its integrity (PCI DSS 11.6.1 asks for an alert). Validated, bounded and rate-limited
   * first; a throw is logged, never answered. Reports come from browsers: anyone can send one.
   */
  onPageIntegrityReport?: ((report: PageIntegrityReport) => void | Promise<void>) | undefined;
  /** Where log lines go; card data is redacted first. Default: warnings and errors to stderr. */
  logger?: CheckoutLogger | undefined;
  /** Default: `'production'` when `NODE_ENV` is `production`, else `'development'`. */
  environment?: 'production' | 'development' | undefined;
  /** Largest JSON body accepted. Default `'16kb'`. */
  bodyLimit?: string | number | undefined;
  /** Lifetime of a 3-D Secure session. Default `1_800_000` (30 minutes). */
  sessionTtlMs?: number | undefined;
  /**
   * After a payment create that got no answer, how long a lookup that does not find the payment
   * still counts as "unknown" rather than "never created": the gateway may still be processing
   * the request. Until then the shopper is asked to wait and no new attempt is sent for the order.
   * Default `60_000`.
   */
  reconcileGraceMs?: number | undefined;
  /**
   * How often this instance runs the reconciliation sweep (`reconcile()`): money facts whose hook
   * has not resolved, open attempts, and the gateway's recent charges. `false` turns it off.
   * Default `300_000` with Express; the Fetch handler runs it on a timer only when this is a number.
   */
  reconcileIntervalMs?: number | false | undefined;
  /**
   * OpenTelemetry spans and metrics (README: Telemetry). Default: the application's global
   * providers when `@opentelemetry/api` is installed and an SDK registered; else nothing at all.
   */
  telemetry?: TelemetryOptions | undefined;
}

/** A tracer provider, as `@opentelemetry/api`'s `TracerProvider` (typed loosely: the API is an optional peer). */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): unknown;
}

/** A meter provider, as `@opentelemetry/api`'s `MeterProvider`. */
export interface MeterProviderLike {
  getMeter(name: string, version?: string): unknown;
}

/** The `telemetry` option of `createCheckout` and `createCheckoutHandler`. */
export interface TelemetryOptions {
  /** Where spans go. Default: the application's global provider (the Node SDK registers one). */
  tracerProvider?: TracerProviderLike;
  /** Where metrics go. Default: the application's global provider. */
  meterProvider?: MeterProviderLike;
  /**
   * Client spans for gateway calls. `'auto'` (default): ours, unless the application already
   * traces `fetch` (undici's instrumentation is subscribed), whose spans then stand in their place;
   * `'always'`, `'never'`. The call duration histogram is recorded in every case.
   */
  gatewaySpans?: 'auto' | 'always' | 'never';
  /** `false` turns all of it off, whatever the application registered. Default `true`. */
  enabled?: boolean;
}
