import { maskText } from '@pg-checkout/protocol';
import {
  GatewayConnectionError,
  GatewayTimeoutError,
  InvalidRequestError,
  SignatureError,
  UnexpectedResponseError,
} from '../errors.js';
import type { ResolvedOptions } from '../options.js';
import { signRequest } from '../signing.js';

/** Per-call options, the last argument of every client method. */
export interface CallOptions {
  /** Sent as X-Forwarded-For: the shopper's IP, for the gateway's fraud checks. */
  forwardedFor?: string | undefined;
  /** Overrides the client's timeoutMs for this call. */
  timeoutMs?: number | undefined;
  /** Aborts the call; the abort reason is thrown as is. */
  signal?: AbortSignal | undefined;
}

/**
 * One HTTP exchange with the gateway, as a tracing tool needs it (OpenTelemetry's HTTP client
 * attributes): never a header, a body or a query.
 */
export interface GatewayExchange {
  method: 'GET' | 'POST';
  /** The absolute URL requested (the base URL and the endpoint's path; a reference may be in it). */
  url: string;
  /** The HTTP status of the answer; absent when none came (connection error, timeout, abort). */
  status?: number;
  /** 0 for the first try, 1 and up for a GET's retries. */
  attempt: number;
}

/** Called after each exchange, in the caller's async context; what it throws is ignored. */
export type ExchangeListener = (exchange: GatewayExchange) => void;

/** An answer that came back as JSON with a boolean `success`. */
export interface Answer {
  status: number;
  body: Record<string, unknown> & { success: boolean };
}

const MAX_RETRY_DELAY_MS = 5_000;
const TIMED_OUT = Symbol('timed out');
const UNKNOWN_OUTCOME =
  'the outcome is unknown: reconcile (look the payment up by merchant reference) before trying again';

/** Waits `ms`, rejecting early when `signal` aborts (node:timers/promises is not on every runtime). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}

function checkCallOptions(call: CallOptions | undefined): void {
  if (call === undefined) return;
  if (
    call.forwardedFor !== undefined &&
    (typeof call.forwardedFor !== 'string' ||
      /[\r\n]/.test(call.forwardedFor) ||
      call.forwardedFor.trim() === '')
  ) {
    throw new InvalidRequestError(
      'forwardedFor must be a non-empty IP address string without line breaks',
      [{ path: 'forwardedFor', message: 'invalid X-Forwarded-For value' }],
    );
  }
  if (call.timeoutMs !== undefined && (!Number.isFinite(call.timeoutMs) || call.timeoutMs <= 0)) {
    throw new InvalidRequestError('timeoutMs must be a positive number of milliseconds', [
      { path: 'timeoutMs', message: 'must be a positive number' },
    ]);
  }
}

/** Signs and sends requests; the one place that talks HTTP. */
export class Transport {
  readonly listeners = new Set<ExchangeListener>();
  constructor(private readonly options: ResolvedOptions) {}

  private tell(exchange: GatewayExchange): void {
    for (const listener of this.listeners) {
      try {
        listener(exchange);
      } catch {
        // An observer never changes what the call answers.
      }
    }
  }

  /**
   * Sends a GET. Reads (lookups, lists) retry connection errors and 5xx with backoff and jitter; the GETs
   * that move money (execute, refund, cancel transfer) pass `retry: false`.
   */
  async get(path: string, call: CallOptions | undefined, retry: boolean): Promise<Answer> {
    checkCallOptions(call);
    const retries = retry ? this.options.retries : 0;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once('GET', path, undefined, call, attempt, !retry);
      } catch (err) {
        if (!(err instanceof GatewayConnectionError) || attempt >= retries) throw err;
        const ceiling = Math.min(MAX_RETRY_DELAY_MS, this.options.retryDelayMs * 2 ** attempt);
        const delay = Math.random() * ceiling;
        this.options.logger.warn?.(
          `GET ${path} failed (${err.message}); retrying in ${Math.round(delay)} ms`,
          { attempt: attempt + 1 },
        );
        await sleep(delay, call?.signal).catch(() => {
          throw call?.signal?.reason ?? err;
        });
      }
    }
  }

  /**
   * Sends a POST once: a POST that moves money is never retried blindly. `changesState: false` marks the
   * read-only POSTs (list, card lookup, validate), whose failures need no reconciliation.
   */
  async post(path: string, body: string, call?: CallOptions, changesState = true): Promise<Answer> {
    checkCallOptions(call);
    return this.once('POST', path, body, call, 0, changesState);
  }

  private async once(
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
    call: CallOptions | undefined,
    attempt: number,
    changesState: boolean,
  ): Promise<Answer> {
    const { baseUrl, token, secret, logger } = this.options;
    const url = `${baseUrl}${path}`;
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'X-Token': token,
      'X-Signature': await signRequest(url, body, secret),
    };
    if (call?.forwardedFor !== undefined) headers['X-Forwarded-For'] = call.forwardedFor;

    const outer = call?.signal;
    if (outer?.aborted) throw outer.reason;
    const timeoutMs = call?.timeoutMs ?? this.options.timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(TIMED_OUT), timeoutMs);
    const forward = () => controller.abort(outer?.reason);
    outer?.addEventListener('abort', forward, { once: true });
    const started = Date.now();
    let status: number | undefined;
    let text: string;
    try {
      const response = await this.options.fetch(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        signal: controller.signal,
        redirect: 'manual',
      });
      status = response.status;
      text = await response.text();
    } catch (err) {
      if (controller.signal.reason === TIMED_OUT) {
        logger.warn?.(`${method} ${path} timed out after ${timeoutMs} ms`, { attempt });
        throw new GatewayTimeoutError(
          `no answer from the gateway within ${timeoutMs} ms for ${method} ${path}` +
            (changesState ? `; ${UNKNOWN_OUTCOME}` : ''),
          { cause: err },
        );
      }
      if (outer?.aborted) throw outer.reason;
      throw new GatewayConnectionError(
        `could not reach the gateway at ${new URL(baseUrl).origin} (${whyUnreachable(err)}) for ${method} ${path}` +
          (changesState ? `; if the request arrived, ${UNKNOWN_OUTCOME}` : ''),
        { cause: err },
      );
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
      if (this.listeners.size > 0)
        this.tell({ method, url, attempt, ...(status === undefined ? {} : { status }) });
    }
    logger.debug?.(`${method} ${path} -> ${status}`, { ms: Date.now() - started, attempt });
    return this.interpret(method, path, status, text, changesState);
  }

  private interpret(
    method: string,
    path: string,
    status: number,
    text: string,
    changesState: boolean,
  ): Answer {
    if (status === 403) {
      const where = this.options.environment
        ? ` (this client is set up for the ${this.options.environment} environment)`
        : '';
      throw new SignatureError(
        `the gateway refused the signature or credentials (HTTP 403) for ${method} ${path}. Likely causes: ` +
          `the token and secret belong to the other environment, development vs production${where}; ` +
          'the body was reformatted after signing (a proxy or JSON layer re-serialized it); ' +
          'or a proxy changed the URL (scheme, host, port or path) that was signed',
        { statusCode: 403, raw: parseOrText(text) },
      );
    }
    if (status >= 500) {
      throw new GatewayConnectionError(
        `the gateway answered HTTP ${status} for ${method} ${path}` +
          (changesState ? `; ${UNKNOWN_OUTCOME}` : ''),
        { statusCode: status, raw: parseOrText(text) },
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new UnexpectedResponseError(
        `the gateway's answer to ${method} ${path} (HTTP ${status}) is not JSON`,
        {
          statusCode: status,
          raw: maskText(text.slice(0, 2_000)),
        },
      );
    }
    if (
      body === null ||
      typeof body !== 'object' ||
      typeof (body as { success?: unknown }).success !== 'boolean'
    ) {
      throw new UnexpectedResponseError(
        `the gateway's answer to ${method} ${path} (HTTP ${status}) has no boolean \`success\``,
        {
          statusCode: status,
          raw: body,
        },
      );
    }
    return { status, body: body as Answer['body'] };
  }
}

/** The fetch failure in one line (Node's `ECONNREFUSED`, workerd's "Illegal invocation"), so logs show the cause. */
function whyUnreachable(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  const said = (e: unknown) =>
    e instanceof Error || (typeof e === 'object' && e !== null && 'message' in e)
      ? `${(e as Error).name ?? 'Error'}: ${String((e as Error).message)}`
      : String(e);
  const text = cause?.message === undefined ? said(err) : `${said(err)}; ${said(cause)}`;
  return maskText(text.slice(0, 300));
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return maskText(text.slice(0, 2_000));
  }
}
