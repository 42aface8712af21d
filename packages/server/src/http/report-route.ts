import { successStatus } from './answers.js';
import { CheckoutError, storeUnavailable } from '../errors.js';
import { clientKey } from '../limits/limits.js';
import type { Context } from '../setup/context.js';
import { readPageReports, receivePageReports } from '../use-cases/page-reports.js';
import type { HttpAnswer, HttpExchange } from './exchange.js';
import type { Route } from './route.js';

/** A browser's batch of reports is a few KB; more is not a report. */
export const MAX_REPORT_BYTES = 16 * 1024;
/** Per client address (IPv6 by /64) and minute, counted in the store so every instance shares it. */
export const REPORTS_PER_CLIENT = 30;
/** Per instance and minute, counted in process: a flood from many addresses costs the hook no more. */
export const REPORTS_PER_INSTANCE = 600;
const WINDOW_MS = 60_000;

const TYPES = new Set(['application/reports+json', 'application/csp-report', 'application/json']);

const instanceCounts = new WeakMap<Context, { window: number; count: number }>();

const refused = (code: 'payload_too_large' | 'invalid_request' | 'unsupported_media_type') =>
  new CheckoutError(
    code,
    {
      payload_too_large: 'The report is too large.',
      invalid_request: 'The request holds no report.',
      unsupported_media_type: 'Send reports as application/reports+json or application/csp-report.',
    }[code],
  );

const rateLimited = (ctx: Context, window: number, scope: 'client' | 'instance') => {
  ctx.telemetry.limitHit('reports', scope);
  return new CheckoutError('rate_limited', 'Too many reports.', {
    retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - ctx.now()) / 1000)),
  });
};

/** Takes one place for this client and this instance in the current minute, or throws `rate_limited`. */
async function takeReportTurn(ctx: Context, address: string | undefined): Promise<void> {
  const window = Math.floor(ctx.now() / WINDOW_MS);
  const here = instanceCounts.get(ctx);
  const counted = here?.window === window ? here : { window, count: 0 };
  if (counted.count >= REPORTS_PER_INSTANCE) throw rateLimited(ctx, window, 'instance');
  counted.count++;
  instanceCounts.set(ctx, counted);
  let count: number;
  try {
    const client = address ? clientKey(address, 64) : 'unknown';
    count = await ctx.store.increment(`rl:reports:${client}:${window}`, WINDOW_MS);
  } catch (error) {
    throw storeUnavailable(error);
  }
  if (count > REPORTS_PER_CLIENT) throw rateLimited(ctx, window, 'client');
}

/** The body as JSON: bytes or text from the reader, or a value a parser of the merchant's app made. */
function parsed(body: unknown): unknown {
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return body;
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  if (bytes.length > MAX_REPORT_BYTES) throw refused('payload_too_large');
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
  } catch {
    throw refused('invalid_request');
  }
}

/**
 * `POST {mount}/reports`: a payment page's CSP, Integrity-Policy and reporter reports. No origin check
 * and no client secret (browsers send reports on their own); the type, the size, the count and the rate
 * are checked before anything is read into a report, and nothing sent is ever answered back.
 */
export const reportRoute: Route = {
  method: 'POST',
  path: '/reports',
  body: 'raw',
  run: async (ex: HttpExchange, ctx: Context): Promise<HttpAnswer> => {
    const type = ex.header('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
    if (!TYPES.has(type)) throw refused('unsupported_media_type');
    await takeReportTurn(ctx, ex.clientAddress);
    const reports = readPageReports(parsed(ex.body), ctx.now());
    if (reports === undefined) throw refused('payload_too_large');
    if (reports.length === 0) throw refused('invalid_request');
    await receivePageReports(reports, ctx);
    return { status: successStatus('no_content'), headers: {}, body: '' };
  },
};
