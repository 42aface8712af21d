import type {
  AmountChangedState,
  CheckoutConfig,
  OrderStatusAnswer,
  OwnedPaymentState,
  RedirectResult,
  SavedCard,
} from './answers.js';
import type {
  EmptyRequest,
  FormPaymentRequest,
  PaymentRequest,
  RedirectRequest,
  SaveCardRequest,
} from './requests.js';
import type { RedirectMethod } from '../vocabulary/index.js';

/** One route: what the browser (or the bank, or the gateway) sends, and what a success answers. */
interface Route<Body, Answer> {
  body: Body;
  answer: Answer;
}

/** An HTML page (the bank's frame shows it), never JSON. */
type Page = string;

/** `POST /hosted|eft|redirect`: one route per redirect method of the vocabulary, the same body and answer. */
type RedirectRoutes = {
  [M in RedirectMethod as `POST /${M}`]: Route<
    RedirectRequest,
    RedirectResult | AmountChangedState
  >;
};

/**
 * Every route under the middleware's mount point, `'METHOD /path/:param'` -> body and answer. A failure
 * of a JSON route answers `ApiFailure`, except where `answer` says a failure's own shape.
 */
export interface BrowserRoutes extends RedirectRoutes {
  'GET /config': Route<undefined, CheckoutConfig>;
  'POST /payments': Route<PaymentRequest, OwnedPaymentState>;
  'POST /payments/:reference/3dsv2/confirm': Route<EmptyRequest, OwnedPaymentState>;
  'POST /payments/:reference/cancel': Route<EmptyRequest, OwnedPaymentState>;
  'GET /payments/:reference': Route<undefined, OwnedPaymentState>;
  'GET /order': Route<undefined, OrderStatusAnswer>;
  /** The bank's method page: `tdsMethodContent` as its own document. */
  'GET /3ds/:session/method': Route<undefined, Page>;
  /** The bank's v2 post (`callbackUrl`): the completion page. */
  'POST /3ds/:session/callback': Route<{ cres: string; threeDSSessionData?: string }, Page>;
  /** The bank's v1 post (`TermUrl`): the completion page. */
  'POST /3ds/:session/term': Route<{ PaRes: string; MD?: string }, Page>;
  /** The card form posted by a browser that runs no script (form-encoded): a page, or 303 to the result. */
  'POST /form/pay': Route<FormPaymentRequest, Page>;
  /** The no-script 3-D Secure page's refresh after the method step: Step 2, then a page. */
  'GET /form/:session/continue': Route<undefined, Page>;
  'GET /cards': Route<undefined, { success: true; cards: SavedCard[] }>;
  'POST /cards': Route<SaveCardRequest, { success: true; card: SavedCard }>;
  'DELETE /cards/:token': Route<undefined, { success: true }>;
  /**
   * A payment page's reports (CSP, Integrity-Policy, the page's reporter): `application/reports+json`,
   * `application/csp-report` or `application/json`; answers 204 with no body.
   */
  'POST /reports': Route<unknown, ''>;
  /** Gateway -> merchant: the raw body, verified by its hash. */
  'POST /webhooks/notify': Route<string, { success: true; duplicate?: true; ignored?: true }>;
  'POST /webhooks/payout': Route<string, { success: true; duplicate?: true }>;
}

export type BrowserRoute = keyof BrowserRoutes;
export type RouteMethod<R extends BrowserRoute> = R extends `${infer M} ${string}` ? M : never;
/** The route's path pattern, `:name` for each parameter. */
export type RoutePattern<R extends BrowserRoute> = R extends `${string} ${infer P}` ? P : never;
export type RouteBody<R extends BrowserRoute> = BrowserRoutes[R]['body'];
export type RouteAnswer<R extends BrowserRoute> = BrowserRoutes[R]['answer'];

/** The names of a pattern's `:name` parameters. */
export type RouteParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | RouteParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
export type RouteParams<R extends BrowserRoute> = Record<RouteParamNames<RoutePattern<R>>, string>;

/** A pattern with each parameter filled: `/payments/${string}/cancel`. */
export type FilledPath<P extends string> = P extends `${infer Head}:${string}/${infer Rest}`
  ? `${Head}${string}/${FilledPath<Rest>}`
  : P extends `${infer Head}:${string}`
    ? `${Head}${string}`
    : P;
