import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const TOKEN = 'test-token';
export const SECRET = 'test-secret';

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What a route answers: JSON (or raw text), a status, or a fault. */
export type Reply =
  | { status?: number; json: unknown }
  | { status?: number; text: string }
  | { hang: true }
  | { destroy: true };

export type Route = (req: Recorded) => Reply;

/**
 * A stand-in gateway on 127.0.0.1:0 that checks what every request must carry (method, path, headers,
 * signature over the absolute URL and exact body) and answers from a route table. Its HMAC is computed
 * here, independently of the client's signRequest.
 */
export class FakeGateway {
  readonly requests: Recorded[] = [];
  readonly routes = new Map<string, Route | Route[]>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** Answers `METHOD path`; an array answers successive calls in turn (the last one repeats). */
  on(method: string, path: string, route: Route | Reply | Array<Route | Reply>): this {
    const asRoute = (r: Route | Reply): Route => (typeof r === 'function' ? r : () => r);
    this.routes.set(
      `${method} ${path}`,
      Array.isArray(route) ? route.map(asRoute) : asRoute(route),
    );
    return this;
  }

  reset(): void {
    this.requests.length = 0;
    this.routes.clear();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const recorded: Recorded = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body,
    };
    this.requests.push(recorded);

    const problem = this.checkHeaders(recorded);
    if (problem) {
      res.writeHead(problem.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, message: problem.message }));
      return;
    }
    const key = `${recorded.method} ${recorded.path}`;
    let route = this.routes.get(key);
    if (Array.isArray(route)) {
      const count = this.requests.filter((r) => `${r.method} ${r.path}` === key).length;
      route = route[Math.min(count, route.length) - 1];
    }
    if (!route) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, message: `no route for ${key}` }));
      return;
    }
    const reply = route(recorded);
    if ('hang' in reply) return;
    if ('destroy' in reply) {
      req.socket.destroy();
      return;
    }
    if ('json' in reply) {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.json));
    } else {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(reply.text);
    }
  }

  private checkHeaders(r: Recorded): { status: number; message: string } | undefined {
    if (r.headers['content-type'] !== 'application/json')
      return { status: 400, message: 'Content-Type must be application/json' };
    if (r.headers['accept'] !== 'application/json')
      return { status: 400, message: 'Accept must be application/json' };
    if (r.headers['x-token'] !== TOKEN) return { status: 403, message: 'unknown token' };
    const data = (
      r.method === 'POST' ? `${this.url}${r.path}\n${r.body}` : `${this.url}${r.path}`
    ).trim();
    const expected = createHmac('sha256', SECRET).update(data, 'utf8').digest('hex');
    if (r.headers['x-signature'] !== expected)
      return { status: 403, message: 'signature mismatch' };
    return undefined;
  }
}

/** The spec's sample shapes. */
export const samples = {
  approved: {
    success: true,
    code: 1,
    message: 'Approved',
    reference: 'PG-1',
    transactionDate: '2026-11-23T09:00:00',
    originalErrorCode: 'fin000',
  },
  declined: {
    success: false,
    code: -1,
    message: 'Insufficient funds',
    originalErrorCode: 'fin051',
    reference: 'PG-1',
  },
  threeDsFailed: {
    success: false,
    code: 3,
    message: 'Authentication failed',
    originalErrorCode: 'fin006',
  },
  v1: {
    success: true,
    code: 2,
    reference: 'PG-1',
    transactionDate: '2026-11-23T09:00:00',
    threeDSecure: { acsUrl: 'https://acs.example/v1', transactionId: 'MD-1', paReq: 'eJxPaReq' },
  },
  v2Method: {
    success: true,
    code: 2,
    reference: 'PG-1',
    transactionDate: '2026-11-23T09:00:00',
    threeDSecureV2: {
      tdsMethodContent: '<form action="https://acs.example/m"></form>',
      txId: 'tx-1',
      transactionId: 'T-1',
      sessionData: null,
      acsUrl: null,
      creq: null,
    },
  },
  v2Challenge: {
    success: true,
    code: 2,
    reference: 'PG-1',
    transactionDate: '2026-11-23T09:00:00',
    threeDSecureV2: {
      tdsMethodContent: null,
      txId: null,
      transactionId: 'T-1',
      sessionData: 'sd-1',
      acsUrl: 'https://acs.example/c',
      creq: 'creq-1',
    },
  },
  lookup: {
    success: true,
    reference: 'PG-1',
    amount: 10000,
    currency: 'ZAR',
    status: 'SETTLED',
    pending: false,
    date: '2026-11-23T09:00:00.000Z',
    settlementDate: null,
    settlementId: null,
    settlementAmount: null,
  },
  details: {
    id: 1,
    reference: 'PG-1',
    currency: 'ZAR',
    amount: 10000,
    date: '2026-11-23T09:00:00.000Z',
    source: null,
    merchantReference: 'order-1001',
    paymentMethod: 'CC',
    status: 'SETTLED',
    message: null,
    suspended: false,
    merchant: 'Shop',
    consumerFirstname: 'Jane',
    consumerLastname: 'Doe',
    consumerEmail: 'jane@shop.example',
    fees: 250,
    feesVat: 288,
    feesPercentage: 2.5,
  },
};

export const visaCard = {
  number: '4111111111111111',
  cardHolder: 'Jane Doe',
  expiryMonth: 7,
  expiryYear: 2030,
  cvv: '123',
  type: 'visa' as const,
};

export const createRequest = {
  creditCard: visaCard,
  transaction: { reference: 'order-1001', currency: 'ZAR', amount: 10000 },
  clientIp: '203.0.113.7',
  screenWidth: '1280',
  screenHeight: '800',
};
