import { createServer, type IncomingMessage, type Server } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import type { CheckoutHandler } from '@pg-checkout/server';

// The card body has one home; the Fetch handler's tests import it from here too.
export { cardBody } from './cards.js';

export interface ServeOptions {
  /**
   * As Express's `trust proxy` 'loopback': behind a proxy on this machine, the client's address is
   * the last one `X-Forwarded-For` names that is not loopback, the protocol `X-Forwarded-Proto`.
   */
  trustLoopbackProxy?: boolean;
  /** `false`: the handler is handed no client address, as on a platform that gives none. */
  clientAddress?: false;
}

/**
 * A Fetch handler behind Node's HTTP server on 127.0.0.1, port 0, the client address from the
 * socket; `handler()` is asked on each request, so a test may mount it once it knows the port.
 */
export async function serveHandler(
  handler: () => CheckoutHandler,
  options: ServeOptions = {},
): Promise<{ base: string; close(): Promise<void> }> {
  const server: Server = createServer((req: IncomingMessage, res) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const behindProxy = options.trustLoopbackProxy === true && isLoopback(req.socket.remoteAddress);
    const protocol = (behindProxy && forwarded(req, 'x-forwarded-proto')[0]) || 'http';
    const request = new Request(`${protocol}://${req.headers.host}${req.url}`, {
      method: req.method!,
      headers: headersOf(req),
      ...(hasBody ? { body: bodyOf(req), duplex: 'half' } : {}),
    });
    // As Express: the first address from the right not trusted; one that is no IP gives way to the socket's.
    const named = behindProxy
      ? [...forwarded(req, 'x-forwarded-for')].reverse().find((ip) => !isLoopback(ip))
      : undefined;
    const clientAddress = named && isIP(named) ? named : req.socket.remoteAddress;
    handler()(request, options.clientAddress === false ? {} : { clientAddress }).then(
      async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      },
      (error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const forwarded = (req: IncomingMessage, name: string): string[] => {
  const value = req.headers[name];
  return (Array.isArray(value) ? value.join(',') : (value ?? ''))
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
};

const isLoopback = (ip: string | undefined) =>
  ip !== undefined && (/^(::ffff:)?127\./.test(ip) || ip === '::1');

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  return headers;
}

/**
 * The request's body as a Fetch stream. A cancelled one is left unread, as Node's own servers
 * do with a refused body: destroying the request would close the socket before the answer.
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.pause();
      req.on('data', (chunk: Buffer) => {
        if (!open) return;
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      });
      const finish = (error?: unknown) => {
        if (!open) return;
        open = false;
        if (error === undefined) controller.close();
        else controller.error(error);
      };
      req.on('end', () => finish());
      req.on('error', (error) => finish(error));
      req.on('close', () => !req.complete && finish(new Error('aborted')));
    },
    pull() {
      req.resume();
    },
    cancel() {
      open = false;
      req.pause();
    },
  });
}

/**
 * A call as the checkout page makes it (same origin): a body is sent as JSON, a string one as it
 * is; an answer that is not JSON fails with its status and text.
 */
export async function callJson(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  // The checkout's answers are read field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      origin: base,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  try {
    return { status: response.status, headers: response.headers, body: JSON.parse(text || 'null') };
  } catch {
    throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
  }
}
