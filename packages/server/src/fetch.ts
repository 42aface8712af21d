import { CheckoutError } from './errors.js';
import { createCheckoutCore, type CheckoutActions } from './core.js';
import type { HttpAnswer, HttpExchange, BodyKind } from './http/exchange.js';
import type { CheckoutOptions, ReconcileOptions, ReconcileSummary } from './options.js';

/** Options of {@link createCheckoutHandler}: the checkout's, with the Fetch API `Request` handed to your hooks. */
export interface CheckoutHandlerOptions extends CheckoutOptions<Request> {
  /**
   * The shopper's IP address for a request, when the caller of the handler does not pass one
   * (the Fetch API's `Request` carries none). Read it from what your server or its proxy sets;
   * a request without a valid address is refused as a setup error (503 `misconfigured`).
   */
  clientAddress?: (request: Request) => string | undefined;
}

/** Per call: what only the server around the handler knows. */
export interface HandlerContext {
  /** The client's IP address: SvelteKit `getClientAddress()`, Nitro `getRequestIP(event)`, ... */
  clientAddress?: string | undefined;
}

/** `(request) => Response` for any server that speaks the Fetch API. */
export type CheckoutHandler = (request: Request, context?: HandlerContext) => Promise<Response>;

/**
 * The reconciliation sweep beside the handler: call `reconcile()` from a cron on runtimes without
 * long-lived timers (see docs/contracts.md).
 */
export interface CheckoutSweep {
  /** One reconciliation sweep; never throws for one bad item. */
  reconcile(options?: ReconcileOptions): Promise<ReconcileSummary>;
  /** Stops the sweep's timer and this process's hook retries. */
  close(): void;
}

const FORM_LIMIT = 64 * 1024;
const RAW_LIMIT = 256 * 1024;

/**
 * The same routes as the Express router, as one Fetch API function, for Next.js route handlers,
 * SvelteKit, Nuxt/Nitro, Hono, React Router resource routes, Deno or Bun. It answers requests
 * under the path of `publicUrl` (`https://shop.example/checkout` -> `/checkout/...`) and 404 for
 * any other path. Options are validated here, once.
 */
export function createCheckoutHandler(
  options: CheckoutHandlerOptions,
): CheckoutHandler & CheckoutSweep & CheckoutActions {
  const { clientAddress, ...checkout } = options;
  const core = createCheckoutCore<Request>(checkout, { name: 'createCheckoutHandler' });
  const mount = new URL(options.publicUrl).pathname.replace(/\/+$/, '');
  const table = core.routes.map((route) => ({ route, match: matcher(route.path) }));
  // Not every runtime keeps timers between requests: the sweep runs on one only when asked.
  if (typeof options.reconcileIntervalMs === 'number') core.sweepEvery(options.reconcileIntervalMs);

  const handle = async (request: Request, context: HandlerContext = {}): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname.startsWith(`${mount}/`)
      ? url.pathname.slice(mount.length)
      : undefined;
    let params: Record<string, string> | undefined;
    const found =
      path === undefined
        ? undefined
        : table.find(
            ({ route, match }) => route.method === request.method && (params = match(path)),
          );
    const where = { method: request.method, path: url.pathname };
    if (!found || !params)
      return toResponse(
        core.fail(undefined, new CheckoutError(404, 'not_found', 'No such checkout route.'), where),
      );
    let body: unknown;
    try {
      body = await readBody(request, found.route.body, core.bodyLimitBytes);
    } catch (error) {
      return toResponse(core.fail(found.route, error, where));
    }
    const exchange: HttpExchange = {
      request,
      method: request.method,
      params,
      header: (name) => request.headers.get(name) ?? undefined,
      clientAddress: context.clientAddress ?? clientAddress?.(request),
      origin: url.origin,
      body,
    };
    return toResponse(await core.handle(found.route, exchange));
  };
  return Object.assign(handle, {
    reconcile: (reconcileOptions?: ReconcileOptions) => core.reconcile(reconcileOptions),
    close: () => core.close(),
    refund: core.refund,
    refundable: core.refundable,
  });
}

/** `/payments/:reference` as a function of a path: its decoded parameters, or `undefined`. */
function matcher(pattern: string): (path: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((part) => (part.startsWith(':') ? (names.push(part.slice(1)), '([^/]+)') : escape(part)))
    .join('/');
  const regex = new RegExp(`^${source}/?$`);
  return (path) => {
    const match = regex.exec(path);
    if (!match) return undefined;
    const params: Record<string, string> = {};
    try {
      names.forEach((name, i) => (params[name] = decodeURIComponent(match[i + 1]!)));
    } catch {
      return undefined; // a broken %-escape names nothing
    }
    return params;
  };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Keeps a byte order mark, as Buffer#toString did, so a JSON body that starts with one stays invalid.
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

const tooLarge = () =>
  new CheckoutError(413, 'payload_too_large', 'The request body is too large.');

/** Reads at most `limit` bytes of the body, refusing more without reading it all. */
async function bytes(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  if (declared > limit) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}

const essence = (request: Request) =>
  (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

async function readBody(request: Request, kind: BodyKind, jsonLimit: number): Promise<unknown> {
  if (kind === 'none') return undefined;
  if (kind === 'raw') return bytes(request, RAW_LIMIT);
  if (kind === 'form') {
    if (essence(request) !== 'application/x-www-form-urlencoded') return {};
    const params = new URLSearchParams(utf8.decode(await bytes(request, FORM_LIMIT)));
    if ([...params.keys()].length > 20) throw tooLarge();
    return Object.fromEntries(params);
  }
  if (essence(request) !== 'application/json')
    throw new CheckoutError(
      415,
      'unsupported_media_type',
      'Send the request body as application/json.',
    );
  const text = utf8.decode(await bytes(request, jsonLimit));
  try {
    const parsed: unknown = text.length === 0 ? {} : JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) return parsed;
  } catch {
    // answered below
  }
  throw new CheckoutError(400, 'invalid_json', 'The request body is not valid JSON.');
}

function toResponse(answer: HttpAnswer): Response {
  const { body } = answer;
  return new Response(
    body.length === 0 ? null : typeof body === 'string' ? body : new Uint8Array(body),
    {
      status: answer.status,
      headers: answer.headers,
    },
  );
}
