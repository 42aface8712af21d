import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A proxy in front of a gateway (the sandbox) that can lose a refund's answer after the gateway
 * processed it, and then fail the lookups of refund merchant references (`<payment>~r<i>`), as a network that drops
 * answers would. Everything else is forwarded byte for byte, Host kept (the signature covers the URL
 * the shop used).
 */
export interface LossyGateway {
  url: string;
  /** Lose the next refund's answer; lookups of refund slot references (`…~r<i>`) fail from then on. */
  loseNextRefundAnswer(): void;
  /** Whether lookups of refund slot references answer 503 (set by a lost answer). */
  blindLookups: boolean;
  close(): Promise<void>;
}

const REFUND_LOOKUP = /^\/pg\/api\/v2\/payment\/lookup\/merchantReference\/[^/?]+~r[0-9]+$/;

export async function startLossyGateway(target: string): Promise<LossyGateway> {
  const to = new URL(target);
  let loseRefund = false;
  const state = { blind: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      if (state.blind && REFUND_LOOKUP.test(path)) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: false, message: 'unavailable', code: -1 }));
        return;
      }
      const lose = loseRefund && req.method === 'POST' && /\/refund$/.test(path);
      if (lose) loseRefund = false;
      const upstream = httpRequest(
        { host: to.hostname, port: to.port, path, method: req.method, headers: req.headers },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (c: Buffer) => body.push(c));
          answer.on('end', () => {
            if (lose) {
              // Processed at the gateway; the answer never reaches the shop.
              state.blind = true;
              req.socket.destroy();
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(body));
          });
        },
      );
      upstream.on('error', () => req.socket.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    loseNextRefundAnswer: () => void (loseRefund = true),
    get blindLookups() {
      return state.blind;
    },
    set blindLookups(value: boolean) {
      state.blind = value;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
