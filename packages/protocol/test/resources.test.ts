import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CancelSubscriptionRequestSchema,
  CancelTransferRequestSchema,
  CreateEftRequestSchema,
  CreateRedirectRequestLenientSchema,
  CreateRedirectRequestSchema,
  CreateTransferRequestLenientSchema,
  CreateTransferRequestSchema,
  CreateTransferResponseSchema,
  EditSubscriptionRequestSchema,
  FailureResponseSchema,
  GatewayResponseSchema,
  ListMerchantsResponseSchema,
  ListPaymentsRequestLenientSchema,
  ListPaymentsRequestSchema,
  ListPaymentsResponseSchema,
  ListTransfersResponseSchema,
  LookupCardRequestSchema,
  LookupCardResponseSchema,
  RedirectLookupRecordSchema,
  RedirectResponseSchema,
  RegisterCardRequestSchema,
  RegisterCardResponseSchema,
  SubscriptionResponseSchema,
  TransactionLookupRecordSchema,
  UnregisterCardRequestSchema,
  ValidateResponseSchema,
} from '../src/index.js';
import { consumer, failsAt, passes, transaction, urls, visaCard, withChange } from './support.js';

const details = {
  id: 1,
  reference: 'PG-1',
  currency: 'ZAR',
  amount: -500,
  date: '2026-11-23T09:00:00.000Z',
  source: null,
  merchantReference: 'order-1',
  paymentMethod: 'CC',
  status: 'NEW',
  message: null,
  suspended: false,
  merchant: 'Shop',
  consumerFirstname: null,
  consumerLastname: null,
  consumerEmail: null,
  fees: 0,
  feesVat: 0,
  feesPercentage: 2.5,
  pending: true,
};

describe('envelope', () => {
  it('requires a boolean success and lets new fields through', () => {
    const r = passes(GatewayResponseSchema, { success: true, brandNew: 1 });
    assert.equal((r as Record<string, unknown>).brandNew, 1);
    failsAt(GatewayResponseSchema, { success: 'true' }, 'success', /boolean/);
    failsAt(GatewayResponseSchema, { success: true, code: 1.5 }, 'code', /int/);
  });
  it('a failure carries a message', () => {
    passes(FailureResponseSchema, {
      success: false,
      message: 'Declined',
      code: -1,
      originalErrorCode: 'fin005',
    });
    failsAt(FailureResponseSchema, { success: false, code: -1 }, 'message', /required|string/);
  });
});

describe('validate', () => {
  it('parses {success, merchant}', () => {
    assert.equal(
      passes(ValidateResponseSchema, { success: true, merchant: 'Shop' }).merchant,
      'Shop',
    );
  });
});

describe('card vault', () => {
  it('register needs raw card data with a cvv', () => {
    passes(RegisterCardRequestSchema, { creditCard: visaCard });
    failsAt(
      RegisterCardRequestSchema,
      { creditCard: withChange(visaCard, (c) => delete c.cvv) },
      'creditCard.cvv',
      /required to register/,
    );
    failsAt(
      RegisterCardRequestSchema,
      { creditCard: { token: 't' } },
      'creditCard.number',
      /required/,
    );
    failsAt(
      RegisterCardRequestSchema,
      { creditCard: { ...visaCard, number: '378282246310005', type: 'amex', cvv: '000' } },
      'creditCard.cvv',
      /4 digits for amex/,
    );
    passes(RegisterCardResponseSchema, { success: true, token: 'tok_1' });
  });
  it('lookup takes one of cardNumber, token, transactionReference', () => {
    passes(LookupCardRequestSchema, { cardNumber: '4111111111111111' });
    passes(LookupCardRequestSchema, { token: 't' });
    passes(LookupCardRequestSchema, { transactionReference: 'PG-1' });
    failsAt(
      LookupCardRequestSchema,
      { token: 't', cardNumber: '4111111111111111' },
      '',
      /unknown field/,
    );
    failsAt(LookupCardRequestSchema, { cardNumber: '4111-1111' }, 'cardNumber', /digits/);
    const card = {
      number: '411111XXXXXX1111',
      cardHolder: 'J',
      expiryYear: 2030,
      expiryMonth: 7,
      type: 'visa',
      token: 't',
    };
    passes(LookupCardResponseSchema, { success: true, card });
  });
  it('unregister takes a token', () => {
    passes(UnregisterCardRequestSchema, { token: 't' });
    failsAt(UnregisterCardRequestSchema, { token: '' }, 'token', /empty/);
  });
});

describe('lookups and list', () => {
  it('parses the lookup record, pending refund and settlement fields', () => {
    passes(TransactionLookupRecordSchema, {
      success: true,
      reference: 'PG-1',
      amount: -500,
      currency: 'ZAR',
      status: 'NEW',
      pending: true,
      date: '2026-11-23T09:00:00.000Z',
      settlementDate: null,
      settlementId: null,
      settlementAmount: null,
    });
    failsAt(
      TransactionLookupRecordSchema,
      {
        success: true,
        reference: 'PG-1',
        amount: 1.5,
        currency: 'ZAR',
        status: 'SETTLED',
        date: 'x',
      },
      'amount',
      /int/,
    );
    passes(RedirectLookupRecordSchema, {
      success: true,
      reference: 'PG-2',
      amount: 100,
      currency: 'USD',
      status: 'SETTLED',
      date: '2026-11-23T09:00:00.000Z',
    });
  });
  it('list filters are optional, dates use the millisecond format', () => {
    passes(ListPaymentsRequestSchema, {});
    passes(ListPaymentsRequestSchema, {
      fromDate: '2026-11-01T00:00:00.000Z',
      toDate: '2026-11-30T23:59:59.999Z',
      paymentMethod: 'CC',
      amount: 100,
    });
    failsAt(ListPaymentsRequestSchema, { fromDate: '2026-11-01T00:00:00Z' }, 'fromDate', /SSS/);
    failsAt(
      ListPaymentsRequestSchema,
      { fromDate: '2026-11-30T00:00:00.000Z', toDate: '2026-11-01T00:00:00.000Z' },
      'toDate',
      /before fromDate/,
    );
    failsAt(ListPaymentsRequestSchema, { amount: 1.5 }, 'amount', /integer/);
    const lenient = passes(ListPaymentsRequestLenientSchema, {
      status: null,
      merchantReference: 'o-1',
      page: 2,
    });
    assert.deepEqual(
      Object.entries(lenient).filter(([, v]) => v !== undefined),
      [['merchantReference', 'o-1']],
    );
    passes(ListPaymentsResponseSchema, {
      success: true,
      message: '',
      code: 1,
      transactions: [details],
    });
  });
});

describe('transfers (v2, ZAR)', () => {
  const create = {
    fromMerchant: { merchantId: 1, merchantReference: 'from-1', currency: 'ZAR', amount: 3000 },
    toMerchants: [
      {
        merchantId: 2,
        merchantReference: 'to-2',
        currency: 'ZAR',
        amount: 1000,
        transferDate: '2026-12-01T00:00:00.000Z',
      },
      {
        merchantId: 3,
        merchantReference: 'to-3',
        currency: 'ZAR',
        amount: 2000,
        transferDate: '2026-12-01T00:00:00.000Z',
      },
    ],
    reference: 'split-1',
  };
  it('accepts a balanced ZAR transfer', () => {
    passes(CreateTransferRequestSchema, create);
  });
  it('takes fromMerchant without merchantId: the caller is the from merchant', () => {
    const { merchantId: _id, ...from } = create.fromMerchant;
    passes(CreateTransferRequestSchema, { ...create, fromMerchant: from });
    passes(CreateTransferRequestLenientSchema, {
      ...create,
      fromMerchant: { ...from, merchantId: null },
    });
    failsAt(
      CreateTransferRequestSchema,
      withChange(create, (d) => delete (d.toMerchants[0] as { merchantId?: number }).merchantId),
      'toMerchants[0].merchantId',
      /required/,
    );
  });
  it('refuses unbalanced sums, forex and long references', () => {
    failsAt(
      CreateTransferRequestSchema,
      withChange(create, (d) => (d.toMerchants[0].amount = 999)),
      'toMerchants',
      /sum to 2999/,
    );
    failsAt(
      CreateTransferRequestSchema,
      withChange(create, (d) => (d.fromMerchant.currency = 'USD')),
      'fromMerchant.currency',
      /ZAR only/,
    );
    failsAt(
      CreateTransferRequestSchema,
      { ...create, reference: 'x'.repeat(100) },
      'reference',
      /99/,
    );
    failsAt(
      CreateTransferRequestSchema,
      withChange(create, (d) => (d.toMerchants[1].transferDate = '2026-12-01')),
      'toMerchants[1].transferDate',
      /SSS/,
    );
  });
  it('parses create, cancel, merchants and list answers', () => {
    passes(CreateTransferResponseSchema, {
      success: true,
      message: '',
      code: 1,
      fromMerchantId: 1,
      transfers: [
        {
          merchantId: 2,
          merchantReference: 'to-2',
          currency: 'ZAR',
          amount: 1000,
          transferDate: 1796083200000,
          reference: 'TR-1',
        },
      ],
    });
    passes(CancelTransferRequestSchema, { reference: 'TR-1' });
    passes(ListMerchantsResponseSchema, {
      success: true,
      code: 1,
      merchants: [
        {
          id: 2,
          dateCreated: 1,
          dateUpdated: 2,
          name: 'Aff',
          email: 'a@b.example',
          enabled: true,
          settings: {},
          logo: '',
        },
      ],
    });
    passes(ListTransfersResponseSchema, {
      success: true,
      code: 1,
      transactions: [{ ...details, paymentMethod: 'TRANSFER', suspended: true }],
    });
  });
});

describe('subscriptions', () => {
  it('edit links a new card, cancel takes the reference', () => {
    passes(EditSubscriptionRequestSchema, { subscriptionReference: 'sub-1', creditCard: visaCard });
    failsAt(
      EditSubscriptionRequestSchema,
      { subscriptionReference: 'sub-1', creditCard: { ...visaCard, expiryMonth: 0 } },
      'creditCard.expiryMonth',
      /1-12/,
    );
    passes(CancelSubscriptionRequestSchema, { subscriptionReference: 'sub-1' });
    failsAt(CancelSubscriptionRequestSchema, {}, 'subscriptionReference', /required/);
    passes(SubscriptionResponseSchema, { success: true, message: 'Cancelled' });
  });
});

describe('redirect and EFT', () => {
  const redirect = { transaction, consumer, urls, auth: false, hold: true, recurring: false };
  it('accepts a ZAR redirect and needs an address for other currencies', () => {
    passes(CreateRedirectRequestSchema, redirect);
    // The spec does not mark consumer required; only its address is, outside ZAR.
    const { consumer: _c, ...noConsumer } = redirect;
    passes(CreateRedirectRequestSchema, noConsumer);
    passes(CreateRedirectRequestLenientSchema, { ...noConsumer, consumer: null });
    failsAt(
      CreateRedirectRequestSchema,
      { ...noConsumer, transaction: { ...transaction, currency: 'USD' } },
      'consumer.consumerAddress',
      /required for USD/,
    );
    const usd = {
      ...redirect,
      transaction: { ...transaction, currency: 'USD' },
      consumer: { name: 'J' },
    };
    failsAt(CreateRedirectRequestSchema, usd, 'consumer.consumerAddress', /required for USD/);
    failsAt(
      CreateRedirectRequestSchema,
      {
        ...redirect,
        consumer: {
          ...consumer,
          consumerAddress: { ...consumer.consumerAddress, country: 'South Africa' },
        },
      },
      'consumer.consumerAddress.country',
      /two-letter/,
    );
    failsAt(
      CreateRedirectRequestSchema,
      { ...redirect, consumer: { ...consumer, mobile: '082 123' } },
      'consumer.mobile',
      /international/,
    );
    passes(CreateRedirectRequestLenientSchema, { ...redirect, pageUrlKey: null, color: 'x' });
    passes(RedirectResponseSchema, {
      success: true,
      redirectUrl: 'https://pay.example/r/PG-3',
      reference: 'PG-3',
    });
  });
  it('EFT takes transaction, consumer and success/cancel/error urls', () => {
    const { notify: _n, ...eftUrls } = urls;
    passes(CreateEftRequestSchema, { transaction, consumer, urls: eftUrls });
    failsAt(
      CreateEftRequestSchema,
      { transaction, consumer, urls },
      'urls',
      /unknown field `notify`/,
    );
  });
});
