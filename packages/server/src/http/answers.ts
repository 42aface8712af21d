/**
 * Codes to HTTP, in one place (Medusa's `getHttpResponseFromError`): the core carries a code (a
 * `CheckoutError`'s, a payment state's) and facts such as the seconds to wait; `answerFor` turns
 * them into a status, headers and, where the code has one, the shopper's sentence. The error
 * answer, the state answer and telemetry's outcome all call it; no file below `http/` names a
 * status, a `Retry-After` or a default sentence.
 */
import type { PaymentState } from '@pg-checkout/protocol/browser';
import { answerCodesWith, type CoreErrorCode } from '../errors.js';
import type { CompletionKind } from './html.js';

export type { CoreErrorCode } from '../errors.js';

/** What the edge answers for one code: its status, default headers and default sentence. */
export interface StatusRow {
  status: number;
  headers?: Readonly<Record<string, string>>;
  /** What the shopper reads when the core threw the code without a sentence of its own. */
  sentence?: string;
}

const retryAfter = (seconds: number) => ({ 'Retry-After': String(seconds) });
/** Nothing reached the gateway (a store outage, an order that could not be read back): ask again soon. */
const ASK_AGAIN_SOON = retryAfter(5);

/** How soon a client asks again about something being checked (a payment, an order). */
export const CHECK_AGAIN = retryAfter(2);

/** The one table of statuses: a code added to either union does not compile until it has a row. */
export const STATUS_TABLE: Readonly<Record<CoreErrorCode, StatusRow>> = {
  invalid_request: { status: 400 },
  invalid_json: { status: 400 },
  payload_too_large: { status: 413 },
  unsupported_media_type: { status: 415 },
  card_declined: { status: 402 },
  authentication_failed: { status: 402 },
  // A state's code, never thrown: the shopper's own close, confirmed, is an answer, not trouble.
  authentication_cancelled: { status: 200 },
  rate_limited: { status: 429 },
  too_many_declines: { status: 429 },
  forbidden_origin: { status: 403 },
  not_found: { status: 404 },
  conflict: { status: 409 },
  already_paid: { status: 409 },
  method_not_enabled: { status: 404 },
  not_signed_in: { status: 401 },
  forbidden: { status: 403 },
  gateway_unavailable: { status: 503 },
  gateway_timeout: { status: 504 },
  service_busy: {
    status: 503,
    headers: retryAfter(60),
    sentence:
      'We are very busy right now. Please try again in a minute; you have not been charged.',
  },
  store_unavailable: {
    status: 503,
    headers: ASK_AGAIN_SOON,
    sentence:
      'We could not start the payment right now. Nothing was charged; please try again in a moment.',
  },
  temporarily_unavailable: { status: 503, headers: CHECK_AGAIN },
  webhook_invalid: { status: 400 },
  webhook_not_configured: { status: 503 },
  webhook_handler_failed: { status: 500 },
  order_changed: { status: 409 },
  amount_changed: { status: 409 },
  misconfigured: {
    status: 503,
    headers: retryAfter(60),
    sentence:
      'Payments are not available right now because of a problem at the shop. Nothing was charged.',
  },
  internal_error: { status: 500 },
  not_refundable: { status: 409 },
  more_than_left: { status: 409 },
  key_reused: { status: 409 },
  refused: { status: 409 },
};

// A code thrown from plain JavaScript that no row names: a fault of ours, never a 4xx.
const UNKNOWN: StatusRow = STATUS_TABLE.internal_error;

// The gateway failed the call itself (Bad Gateway); the table's 503 `gateway_unavailable` is
// "the core could not ask it". A failed payment state with no row of its own reads the same.
const GATEWAY_FAILED: StatusRow = { status: 502 };

// Where a refused payment state differs from its code's row: a decline of any code is 402, and
// a failure the table does not name as an answer of its own is the gateway's failure.
const STATE_ROWS: ReadonlySet<string> = new Set([
  'already_paid',
  'order_changed',
  'amount_changed',
  'authentication_cancelled',
  'gateway_timeout',
]);

/** The statuses of answers that went well: a route names the kind, never the number. */
const SUCCESS_ROWS = {
  ok: { status: 200 },
  created: { status: 201 },
  no_content: { status: 204 },
  /** A page's form posted: the browser GETs the next page (the no-script card form). */
  see_other: { status: 303 },
} as const satisfies Record<string, StatusRow>;

export type SuccessKind = keyof typeof SUCCESS_ROWS;

/** What the core hands the edge to answer. */
export type AnswerSubject =
  /** A success of one kind. */
  | { success: SuccessKind }
  /** A code (a `CheckoutError`'s, a refused webhook's), with the seconds to wait if it knows them. */
  | {
      code: string;
      retryAfterSeconds?: number | undefined;
      gatewayFailed?: true;
      /** Refused before anything reached the gateway: asking again soon is safe. */
      nothingSent?: true | undefined;
    }
  /** A payment state, answered as the state itself. */
  | { state: PaymentState }
  /** A 3-D Secure completion page of one kind (the bank's frame shows it). */
  | { page: CompletionKind };

// A completion page's status: the code each refusal stands for; a page that shows where the
// payment is (done, still checking) is 200.
const PAGE_CODES: Readonly<Record<CompletionKind, CoreErrorCode | undefined>> = {
  done: undefined,
  checking: undefined,
  rejected: 'invalid_request',
  unknown: 'not_found',
  unavailable: 'gateway_unavailable',
};

/** How a use case ended, for its span: refused for the card, held back, or our (or the gateway's) fault. */
export type AnswerOutcome = 'ok' | 'declined' | 'rejected' | 'fault';

/** The head of an answer: its status, headers, the shopper's sentence if the code has one, and its outcome. */
export interface AnswerHead {
  status: number;
  headers: Record<string, string>;
  sentence?: string;
  outcome: AnswerOutcome;
}

/** The outcome an answer's status tells telemetry: 402 a decline, 429 held back, 5xx a fault. */
export function outcomeOf(status: number): AnswerOutcome {
  if (status === STATUS_TABLE.card_declined.status) return 'declined';
  if (status === STATUS_TABLE.rate_limited.status) return 'rejected';
  return status >= 500 ? 'fault' : 'ok';
}

function rowOf(subject: AnswerSubject): StatusRow {
  if ('success' in subject) return SUCCESS_ROWS[subject.success];
  if ('page' in subject) {
    const code = PAGE_CODES[subject.page];
    return code === undefined ? SUCCESS_ROWS.ok : STATUS_TABLE[code];
  }
  if ('state' in subject) {
    const state = subject.state;
    if (state.success) return SUCCESS_ROWS.ok;
    if (state.status === 'declined') return STATUS_TABLE.card_declined;
    return STATE_ROWS.has(state.code) ? STATUS_TABLE[state.code as CoreErrorCode] : GATEWAY_FAILED;
  }
  if (subject.gatewayFailed) return GATEWAY_FAILED;
  return Object.hasOwn(STATUS_TABLE, subject.code)
    ? STATUS_TABLE[subject.code as CoreErrorCode]
    : UNKNOWN;
}

/** The one function from a code (a payment state, a completion page, a success) to its status, headers and sentence. */
export function answerFor(subject: AnswerSubject): AnswerHead {
  const row = rowOf(subject);
  const headers: Record<string, string> = { ...row.headers };
  if ('code' in subject && subject.retryAfterSeconds !== undefined)
    Object.assign(headers, retryAfter(subject.retryAfterSeconds));
  else if ('code' in subject && subject.nothingSent && !headers['Retry-After'])
    Object.assign(headers, ASK_AGAIN_SOON);
  return {
    status: row.status,
    headers,
    ...(row.sentence !== undefined ? { sentence: row.sentence } : {}),
    outcome: outcomeOf(row.status),
  };
}

/** The status of a success of `kind` (200, 201, 204, 303), from {@link answerFor}. */
export const successStatus = (kind: SuccessKind): number => answerFor({ success: kind }).status;

// A `CheckoutError` reads its status, headers and default sentence from here.
answerCodesWith((code, retryAfterSeconds, nothingSent) =>
  answerFor({ code, retryAfterSeconds, nothingSent }),
);
