import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { GatewayClient } from '../src/index.js';
import {
  FakeGateway,
  SECRET,
  TOKEN,
  createRequest,
  samples,
  visaCard,
} from './support/fake-gateway.js';

const gateway = new FakeGateway();
let client: GatewayClient;
const hit = new Set<string>();

before(async () => {
  await gateway.start();
  client = new GatewayClient({ token: TOKEN, secret: SECRET, baseUrl: gateway.url, retries: 0 });
});
beforeEach(() => gateway.reset());
after(() => gateway.close());

/** Runs one call against one route and returns what the client got and what the server saw. */
async function call<T>(method: string, path: string, reply: unknown, run: () => Promise<T>) {
  gateway.on(method, path, { json: reply });
  const result = await run();
  const seen = gateway.requests.at(-1)!;
  assert.equal(seen.method, method);
  assert.equal(seen.path, path);
  hit.add(`${method} ${path.replace(/PG-1|order-1001|TR-1/g, '{param}')}`);
  return {
    result,
    body: seen.body ? (JSON.parse(seen.body) as Record<string, unknown>) : undefined,
  };
}

const v2 = '/pg/api/v2';
const v3 = '/pg/api/v3';
const urls = {
  success: 'https://shop.example/ok',
  cancel: 'https://shop.example/cancel',
  error: 'https://shop.example/err',
};
const consumer = { name: 'Jane', surname: 'Doe', email: 'jane@shop.example' };
const transfer = {
  reference: 'split-1',
  toMerchants: [{ currency: 'USD', amount: 500, merchantId: 2, merchantReference: 'aff-1' }],
};

describe('validate', () => {
  it('GET and POST', async () => {
    const g = await call('GET', `${v2}/util/validate`, { success: true, merchant: 'Shop' }, () =>
      client.validate(),
    );
    assert.equal(g.result.merchant, 'Shop');
    const p = await call('POST', `${v2}/util/validate`, { success: true, merchant: 'Shop' }, () =>
      client.validatePost({ ping: 1 }),
    );
    assert.deepEqual(p.body, { ping: 1 });
  });
});

describe('payments (v2)', () => {
  it('create: approved', async () => {
    const { result, body } = await call('POST', `${v2}/payment/create`, samples.approved, () =>
      client.payments.create(createRequest),
    );
    assert.equal(result.kind, 'approved');
    assert.equal(result.reference, 'PG-1');
    assert.deepEqual(body, createRequest);
  });
  it('create: each 3D Secure step is its own kind', async () => {
    for (const [reply, kind] of [
      [samples.v1, '3ds-v1'],
      [samples.v2Method, '3ds-v2-method'],
      [samples.v2Challenge, '3ds-v2-challenge'],
    ] as const) {
      const { result } = await call('POST', `${v2}/payment/create`, reply, () =>
        client.payments.create(createRequest),
      );
      assert.equal(result.kind, kind);
    }
  });
  it('confirm3dsV1 sends paRes, confirm3dsV2 sends paRes null and cres', async () => {
    const a = await call('POST', `${v2}/payment/PG-1/confirm`, samples.approved, () =>
      client.payments.confirm3dsV1('PG-1', 'PaRes-1'),
    );
    assert.deepEqual(a.body, { paRes: 'PaRes-1' });
    assert.equal(a.result.kind, 'approved');
    const b = await call('POST', `${v2}/payment/PG-1/confirm`, samples.approved, () =>
      client.payments.confirm3dsV2('PG-1', 'cres-1'),
    );
    assert.deepEqual(b.body, { paRes: null, cres: 'cres-1' });
  });
  it('confirmStep2: approved or challenge', async () => {
    const ids = { txId: 'tx-1', transactionId: 'T-1' };
    const a = await call('POST', `${v2}/payment/3dsv2/PG-1/confirm`, samples.approved, () =>
      client.payments.confirmStep2('PG-1', ids),
    );
    assert.deepEqual(a.body, { reference: 'PG-1', ...ids });
    assert.equal(a.result.kind, 'approved');
    const { reference: _r, ...challenge } = samples.v2Challenge;
    const b = await call('POST', `${v2}/payment/3dsv2/PG-1/confirm`, challenge, () =>
      client.payments.confirmStep2('PG-1', ids),
    );
    assert.equal(b.result.kind, '3ds-v2-challenge');
    assert.equal(b.result.reference, 'PG-1');
  });
  it('execute: GET full, POST partial, POST 0 reverses', async () => {
    const ok = { success: true, transactionDate: '2026-11-23T09:00:00' };
    const g = await call('GET', `${v2}/payment/PG-1/execute`, ok, () =>
      client.payments.execute('PG-1'),
    );
    assert.equal(g.result.kind, 'executed');
    const p = await call('POST', `${v2}/payment/PG-1/execute`, ok, () =>
      client.payments.execute('PG-1', { currency: 'ZAR', amount: 500 }),
    );
    assert.deepEqual(p.body, { transaction: { currency: 'ZAR', amount: 500 } });
    const r = await call('POST', `${v2}/payment/PG-1/execute`, ok, () =>
      client.payments.execute('PG-1', { currency: 'ZAR', amount: 0 }),
    );
    assert.equal(r.result.kind, 'reversed');
  });
  it('refund: GET full, POST partial, code 7 is pending', async () => {
    const ok = { success: true, transactionDate: '2026-11-23T09:00:00' };
    const g = await call('GET', `${v2}/payment/PG-1/refund`, ok, () =>
      client.payments.refund('PG-1'),
    );
    assert.equal(g.result.kind, 'refunded');
    const pending = {
      success: false,
      code: 7,
      originalErrorCode: 'fin012',
      message: 'Refund will be processed manually',
    };
    const p = await call('POST', `${v2}/payment/PG-1/refund`, pending, () =>
      client.payments.refund('PG-1', { reference: 'refund-1', currency: 'ZAR', amount: 507 }),
    );
    assert.deepEqual(p.body, {
      transaction: { reference: 'refund-1', currency: 'ZAR', amount: 507 },
    });
    assert.deepEqual(
      { ...p.result, raw: undefined },
      {
        kind: 'pending',
        code: 7,
        originalErrorCode: 'fin012',
        message: pending.message,
        raw: undefined,
      },
    );
  });
  it('refundMultiple returns per-item results', async () => {
    const reply = {
      success: true,
      message: '',
      synchronous: true,
      transactions: [
        { success: true, serviceReference: 'PG-1', reference: 'r-1' },
        {
          success: false,
          serviceReference: 'PG-2',
          reference: 'r-2',
          code: 7,
          originalErrorCode: 'fin012',
          message: 'manual',
        },
      ],
    };
    const req = {
      synchronous: true,
      transactions: [{ serviceReference: 'PG-1', reference: 'r-1', currency: 'ZAR', amount: 100 }],
    };
    const { result, body } = await call('POST', `${v2}/payment/refund/multiple`, reply, () =>
      client.payments.refundMultiple(req),
    );
    assert.deepEqual(body, req);
    assert.equal(result.transactions?.[1]?.code, 7);
  });
});

describe('foreign (v3)', () => {
  const req = {
    transaction: { reference: 'trip-1', currency: 'USD', amount: 1000 },
    urls,
    consumer,
    transfer,
  };
  it('create returns the redirect', async () => {
    const reply = {
      success: true,
      reference: 'PG-1',
      code: 1,
      message: '',
      redirectUrl: 'https://pay.example/PG-1',
    };
    const { result, body } = await call('POST', `${v3}/payment/create`, reply, () =>
      client.foreign.create(req),
    );
    assert.deepEqual(body, req);
    assert.equal(result.redirectUrl, 'https://pay.example/PG-1');
  });
  it('execute and refund, GET and POST', async () => {
    const ok = { success: true, transactionDate: '2026-11-23T09:00:00' };
    await call('GET', `${v3}/payment/PG-1/execute`, ok, () => client.foreign.execute('PG-1'));
    await call('POST', `${v3}/payment/PG-1/execute`, ok, () =>
      client.foreign.execute('PG-1', { currency: 'USD', amount: 10 }),
    );
    await call('GET', `${v3}/payment/PG-1/refund`, ok, () => client.foreign.refund('PG-1'));
    const r = await call('POST', `${v3}/payment/PG-1/refund`, ok, () =>
      client.foreign.refund('PG-1', { currency: 'USD', amount: 10 }),
    );
    assert.equal(r.result.kind, 'refunded');
  });
  it('edit, add transfer, cancel transfer', async () => {
    const ok = { success: true, reference: 'PG-1', message: 'Updated' };
    const e = await call('POST', `${v3}/payment/PG-1/edit`, ok, () =>
      client.foreign.edit('PG-1', { description: 'New', pax: 2 }),
    );
    assert.deepEqual(e.body, { description: 'New', pax: 2 });
    const a = await call('POST', `${v3}/payment/PG-1/transfer/create`, ok, () =>
      client.foreign.addTransfer('PG-1', transfer),
    );
    assert.deepEqual(a.body, { transfer });
    const c = await call('GET', `${v3}/payment/PG-1/transfer/cancel`, ok, () =>
      client.foreign.cancelTransfer('PG-1'),
    );
    assert.equal(c.result.message, 'Updated');
  });
});

describe('card vault', () => {
  it('register, lookup, unregister', async () => {
    const r = await call('POST', `${v2}/card/register`, { success: true, token: 'tok-1' }, () =>
      client.cards.register(visaCard),
    );
    assert.deepEqual(r.result, { token: 'tok-1' });
    assert.deepEqual(r.body, { creditCard: visaCard });
    const card = {
      number: '411111XXXXXX1111',
      cardHolder: 'Jane Doe',
      expiryYear: 2030,
      expiryMonth: 7,
      type: 'visa',
      token: 'tok-1',
    };
    const l = await call('POST', `${v2}/card/lookup`, { success: true, card }, () =>
      client.cards.lookup({ token: 'tok-1' }),
    );
    assert.equal(l.result.number, '411111XXXXXX1111');
    const u = await call('POST', `${v2}/card/unregister`, { success: true }, () =>
      client.cards.unregister('tok-1'),
    );
    assert.deepEqual(u.body, { token: 'tok-1' });
  });
});

describe('redirects and EFT', () => {
  it('redirect create and EFT create', async () => {
    const reply = { success: true, reference: 'PG-1', redirectUrl: 'https://pay.example/r/PG-1' };
    const transaction = { reference: 'order-1001', currency: 'ZAR', amount: 100 };
    const r = await call('POST', `${v2}/redirect/create`, reply, () =>
      client.redirects.create({ transaction, consumer, urls, hold: true }),
    );
    assert.equal(r.result.reference, 'PG-1');
    const e = await call('POST', `${v2}/payment/create/eft`, reply, () =>
      client.redirects.createEft({ transaction, consumer, urls }),
    );
    assert.deepEqual(e.body, { transaction, consumer, urls });
  });
});

describe('lookups', () => {
  it('by reference, by merchant reference, list, redirect', async () => {
    const a = await call('GET', `${v2}/payment/PG-1`, samples.lookup, () =>
      client.lookups.payment('PG-1'),
    );
    assert.equal(a.result.status, 'SETTLED');
    const b = await call(
      'GET',
      `${v2}/payment/lookup/merchantReference/order-1001`,
      samples.lookup,
      () => client.lookups.byMerchantReference('order-1001'),
    );
    assert.equal(b.result.reference, 'PG-1');
    const filters = {
      merchantReference: 'order-1001',
      fromDate: '2026-11-01T00:00:00.000Z',
      paymentMethod: 'CC',
    };
    const c = await call(
      'POST',
      `${v2}/payment/list`,
      { success: true, code: 1, message: '', transactions: [samples.details] },
      () => client.lookups.list(filters),
    );
    assert.deepEqual(c.body, filters);
    assert.equal(c.result[0]?.merchantReference, 'order-1001');
    const {
      pending: _p,
      settlementDate: _d,
      settlementId: _i,
      settlementAmount: _a,
      ...redirectRecord
    } = samples.lookup;
    const d = await call('GET', `${v2}/redirect/PG-1`, redirectRecord, () =>
      client.lookups.redirect('PG-1'),
    );
    assert.equal(d.result.amount, 10000);
  });
});

describe('transfers (v2)', () => {
  it('create, cancel, merchants, list', async () => {
    const req = {
      fromMerchant: { merchantId: 1, merchantReference: 'from-1', currency: 'ZAR', amount: 1000 },
      toMerchants: [
        {
          merchantId: 2,
          merchantReference: 'to-2',
          currency: 'ZAR',
          amount: 1000,
          transferDate: '2026-12-01T00:00:00.000Z',
        },
      ],
      reference: 'split-1',
    };
    const created = {
      success: true,
      message: '',
      code: 1,
      fromMerchantId: 1,
      transfers: [{ ...req.toMerchants[0], transferDate: 1796083200000, reference: 'TR-1' }],
    };
    const a = await call('POST', `${v2}/transfer/create`, created, () =>
      client.transfers.create(req),
    );
    assert.equal(a.result.transfers?.[0]?.reference, 'TR-1');
    const b = await call(
      'POST',
      `${v2}/transfer/cancel`,
      { success: true, message: '', reference: 'C-1', code: 1 },
      () => client.transfers.cancel('TR-1'),
    );
    assert.deepEqual(b.body, { reference: 'TR-1' });
    const merchant = {
      id: 2,
      dateCreated: 1,
      dateUpdated: 2,
      name: 'Aff',
      email: 'a@b.example',
      enabled: true,
      settings: {},
      logo: '',
    };
    const c = await call(
      'GET',
      `${v2}/transfer/merchants/get`,
      { success: true, message: '', code: 1, merchants: [merchant] },
      () => client.transfers.merchants(),
    );
    assert.equal(c.result[0]?.name, 'Aff');
    const d = await call(
      'GET',
      `${v2}/transfer/list/get`,
      {
        success: true,
        message: '',
        code: 1,
        transactions: [{ ...samples.details, suspended: true }],
      },
      () => client.transfers.list(),
    );
    assert.equal(d.result[0]?.suspended, true);
  });
});

describe('subscriptions', () => {
  it('edit and cancel', async () => {
    const a = await call(
      'POST',
      `${v2}/subscription/edit`,
      { success: true, message: 'Updated' },
      () => client.subscriptions.edit('sub-1', visaCard),
    );
    assert.deepEqual(a.body, { subscriptionReference: 'sub-1', creditCard: visaCard });
    const b = await call(
      'POST',
      `${v2}/subscription/cancel`,
      { success: true, message: 'Cancelled' },
      () => client.subscriptions.cancel('sub-1'),
    );
    assert.equal(b.result.message, 'Cancelled');
  });
});

describe('coverage', () => {
  it('exercised all 33 endpoints', () => {
    assert.equal(hit.size, 33, [...hit].sort().join('\n'));
  });
});
