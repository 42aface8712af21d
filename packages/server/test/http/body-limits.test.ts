import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { overAdapters } from '@pg-checkout/test-helpers/adapters';
import { appForSuite } from '@pg-checkout/test-helpers/suite';

// Every route that reads a body refuses an oversized one before reading it, over a raw socket so
// the test controls what is sent: a declared Content-Length over the limit is answered 413 while
// not one byte of the body has been sent; a chunked body is answered at the limit, its end unsent.

overAdapters((adapter) => {
  const app = appForSuite(adapter);

  const ROUTES = [
    {
      what: 'JSON (POST /payments, 16 KiB)',
      path: '/payments',
      type: 'application/json',
      limit: 16 * 1024,
    },
    {
      what: 'raw webhook (POST /webhooks/notify, 256 KiB)',
      path: '/webhooks/notify',
      type: 'application/json',
      limit: 256 * 1024,
    },
    {
      what: 'bank form post (POST /3ds/:session/callback, 64 KiB)',
      path: `/3ds/${'a'.repeat(32)}/callback`,
      type: 'application/x-www-form-urlencoded',
      limit: 64 * 1024,
    },
  ];

  /** Opens a connection and collects what the server answers; `answered` resolves on the status line. */
  async function open(): Promise<{
    socket: Socket;
    answered: Promise<string>;
    closed: Promise<void>;
  }> {
    const { port } = new URL(app.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let text = '';
    const answered = new Promise<string>((resolve, reject) => {
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n\r\n')) resolve(text);
      });
      socket.once('close', () => reject(new Error(`closed without an answer: ${text}`)));
      socket.once('error', () => undefined);
    });
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    return { socket, answered, closed };
  }

  const head = (path: string, type: string, framing: string) =>
    `POST /checkout${path} HTTP/1.1\r\nHost: shop.test\r\nOrigin: https://shop.test\r\n` +
    `Content-Type: ${type}\r\n${framing}\r\n\r\n`;

  const within = <T>(promise: Promise<T>, ms: number, what: string) =>
    Promise.race([
      promise,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms).unref(),
      ),
    ]);

  describe('oversized bodies: 413 before they are read, on every route', () => {
    for (const route of ROUTES) {
      it(`${route.what}: a declared Content-Length over the limit is refused with no body sent`, async () => {
        const { socket, answered, closed } = await open();
        try {
          socket.write(head(route.path, route.type, `Content-Length: ${50 * 1024 * 1024}`));
          const answer = await within(answered, 3_000, route.what);
          assert.match(answer, /^HTTP\/1\.1 413 /);
          assert.match(
            answer,
            /\r\nconnection: close\r\n/i,
            'the connection is not kept to read the rest',
          );
          await within(closed, 3_000, `${route.what}: connection closed`);
        } finally {
          socket.destroy();
        }
      });

      it(`${route.what}: a chunked body is refused at the limit, its end never sent`, async () => {
        const { socket, answered, closed } = await open();
        try {
          socket.write(head(route.path, route.type, 'Transfer-Encoding: chunked'));
          const chunk = 'x'.repeat(8 * 1024);
          let sent = 0;
          // Just past the limit, then nothing more: the server must not wait for the rest.
          while (sent <= route.limit) {
            socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
            sent += chunk.length;
          }
          const answer = await within(answered, 3_000, route.what);
          assert.match(answer, /^HTTP\/1\.1 413 /);
          assert.match(answer, /\r\nconnection: close\r\n/i);
          await within(closed, 3_000, `${route.what}: connection closed`);
        } finally {
          socket.destroy();
        }
      });
    }

    it('a body within the limit is still read and answered (the webhook route, 200 KiB chunked)', async () => {
      const { socket, answered } = await open();
      try {
        socket.write(head('/webhooks/notify', 'application/json', 'Transfer-Encoding: chunked'));
        const body = JSON.stringify({ pad: 'x'.repeat(200 * 1024) });
        socket.write(`${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`);
        const answer = await within(answered, 3_000, 'webhook within the limit');
        assert.doesNotMatch(answer, /^HTTP\/1\.1 413 /);
        assert.match(answer, /^HTTP\/1\.1 4\d\d /, 'read, then refused as an invalid webhook');
      } finally {
        socket.destroy();
      }
    });
  });
});
