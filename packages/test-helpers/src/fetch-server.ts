import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { CheckoutHandler } from '@pg-checkout/server';

/** A Fetch handler behind Node's HTTP server on 127.0.0.1, port 0, the client address from the socket. */
export async function serveHandler(
  handler: () => CheckoutHandler,
): Promise<{ base: string; close(): Promise<void> }> {
  const server: Server = createServer((req: IncomingMessage, res) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method!,
      headers: req.headers as Record<string, string>,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
    });
    handler()(request, { clientAddress: req.socket.remoteAddress }).then(
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

/** A JSON call as the checkout page makes it (same origin). */
export async function callJson(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  // The checkout's answers are read field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      origin: base,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text || 'null') };
}

export const cardBody = (number: string, cvv = '123') => ({
  card: {
    number,
    cardHolder: 'Test Shopper',
    expiryMonth: 12,
    expiryYear: new Date().getUTCFullYear() + 2,
    cvv,
    type: number.startsWith('5') ? 'mastercard' : 'visa',
  },
  screenWidth: 1280,
  screenHeight: 800,
});
