import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ConsumerAddressSchema,
  ConsumerLenientSchema,
  ConsumerSchema,
  MerchantSchema,
  MerchantTransferSchema,
  PreparedTransferLenientSchema,
  PreparedTransferSchema,
  SubscriptionSchema,
  ThreeDSecureV1Schema,
  ThreeDSecureV2ChallengeSchema,
  ThreeDSecureV2MethodSchema,
  TransactionDetailsSchema,
  TransactionLenientSchema,
  UrlsLenientSchema,
  UrlsSchema,
} from '../src/index.js';
import { consumer, failsAt, passes, transaction, urls } from './support.js';

describe('Consumer and Consumer Address', () => {
  it('accept the sample; every field of a consumer is optional', () => {
    passes(ConsumerSchema, consumer);
    passes(ConsumerSchema, {});
    passes(ConsumerAddressSchema, consumer.consumerAddress);
  });
  it('refuse a bad e-mail, a local phone number and a country name', () => {
    failsAt(ConsumerSchema, { ...consumer, email: 'jane' }, 'email', /e-mail/);
    failsAt(ConsumerSchema, { ...consumer, mobile: '082 123 4567' }, 'mobile', /international/);
    failsAt(
      ConsumerAddressSchema,
      { ...consumer.consumerAddress, country: 'ZAF' },
      'country',
      /two-letter/,
    );
    failsAt(ConsumerAddressSchema, { ...consumer.consumerAddress, city: '' }, 'city', /empty/);
  });
  it('lenient: null fields are absent, unknown keys dropped', () => {
    const parsed = passes(ConsumerLenientSchema, {
      name: 'J',
      email: null,
      consumerAddress: null,
      age: 3,
    });
    assert.deepEqual(JSON.parse(JSON.stringify(parsed)), { name: 'J' });
  });
});

describe('URLs', () => {
  it('need absolute http(s) success, cancel, error; notify optional', () => {
    passes(UrlsSchema, urls);
    const { notify: _n, ...noNotify } = urls;
    passes(UrlsSchema, noNotify);
    failsAt(UrlsSchema, { ...urls, cancel: '/cancel' }, 'cancel', /absolute http/);
    failsAt(UrlsSchema, { ...urls, error: undefined }, 'error', /required/);
    passes(UrlsLenientSchema, { ...urls, notify: null });
  });
});

describe('Subscription', () => {
  it('accepts defaults left out and refuses bad values', () => {
    passes(SubscriptionSchema, {
      reference: 's-1',
      firstname: 'J',
      lastname: 'D',
      email: 'j@d.example',
    });
    failsAt(
      SubscriptionSchema,
      {
        reference: 's-1',
        firstname: 'J',
        lastname: 'D',
        email: 'j@d.example',
        interval: 'monthly',
      },
      'interval',
      /upper-case/,
    );
    failsAt(
      SubscriptionSchema,
      { reference: 's-1', firstname: 'J', lastname: 'D', email: 'j@d.example', trialDays: 1.5 },
      'trialDays',
      /integer/,
    );
  });
});

describe('3D Secure objects', () => {
  it('V1 needs acsUrl, transactionId and paReq as strings', () => {
    passes(ThreeDSecureV1Schema, {
      acsUrl: 'https://acs.example',
      transactionId: 'MD',
      paReq: 'eJx',
    });
    failsAt(
      ThreeDSecureV1Schema,
      { acsUrl: 'https://acs.example', transactionId: 'MD', paReq: 12345 },
      'paReq',
      /string/,
    );
  });
  it('Step 2 and Step 3 shapes insist on their nulls', () => {
    const step2 = {
      tdsMethodContent: '<form></form>',
      txId: 'tx',
      transactionId: 'T',
      sessionData: null,
      acsUrl: null,
      creq: null,
    };
    passes(ThreeDSecureV2MethodSchema, step2);
    failsAt(ThreeDSecureV2MethodSchema, { ...step2, creq: 'c' }, 'creq', /null/);
    const step3 = {
      tdsMethodContent: null,
      txId: null,
      transactionId: 'T',
      sessionData: 's',
      acsUrl: 'https://acs',
      creq: 'c',
    };
    passes(ThreeDSecureV2ChallengeSchema, step3);
    failsAt(ThreeDSecureV2ChallengeSchema, { ...step3, acsUrl: null }, 'acsUrl', /string/);
  });
});

describe('Merchant, Merchant Transfer, Prepared Transfer, Transaction Details', () => {
  it('Merchant takes epoch-millisecond dates as integers', () => {
    const m = {
      id: 2,
      dateCreated: 1700000000000,
      dateUpdated: 1700000000001,
      name: 'Aff',
      email: 'a@b.example',
      enabled: true,
      settings: { any: 1 },
      logo: 'x.png',
    };
    passes(MerchantSchema, m);
    failsAt(MerchantSchema, { ...m, dateCreated: '2026-01-01' }, 'dateCreated', /number/);
    failsAt(MerchantSchema, { ...m, enabled: 'yes' }, 'enabled', /boolean/);
  });
  it('Merchant Transfer (receiver) needs a transferDate in the millisecond format', () => {
    const t = {
      merchantId: 2,
      merchantReference: 'to-2',
      currency: 'ZAR',
      amount: 100,
      transferDate: '2026-12-01T00:00:00.000Z',
      source: 'split',
    };
    passes(MerchantTransferSchema, t);
    failsAt(MerchantTransferSchema, { ...t, transferDate: undefined }, 'transferDate', /required/);
    failsAt(
      MerchantTransferSchema,
      { ...t, transferDate: '2026-13-01T00:00:00.000Z' },
      'transferDate',
      /real date/,
    );
    failsAt(MerchantTransferSchema, { ...t, merchantId: '2' }, 'merchantId', /number/);
  });
  it('Prepared Transfer needs receivers with integer amounts', () => {
    const p = {
      reference: 'p-1',
      toMerchants: [{ currency: 'USD', amount: 100, merchantId: 2, merchantReference: 'a' }],
    };
    passes(PreparedTransferSchema, p);
    failsAt(
      PreparedTransferSchema,
      { ...p, toMerchants: [{ ...p.toMerchants[0], amount: 1.25 }] },
      'toMerchants[0].amount',
      /integer/,
    );
    failsAt(PreparedTransferSchema, { ...p, toMerchants: 'all' }, 'toMerchants', /array/);
    passes(PreparedTransferLenientSchema, { ...p, note: 'dropped' });
  });
  it('Transaction Details accept fractional fee percentages but not fractional cents', () => {
    const d = {
      id: 1,
      reference: 'PG-1',
      currency: 'ZAR',
      amount: -500,
      date: '2026-11-23T09:00:00.000Z',
      status: 'REFUNDED',
      feesPercentage: 2.75,
      fees: 10,
    };
    passes(TransactionDetailsSchema, d);
    failsAt(TransactionDetailsSchema, { ...d, fees: 10.5 }, 'fees', /int/);
  });
  it('Transaction lenient drops unknown keys and treats null source as absent', () => {
    const parsed = passes(TransactionLenientSchema, {
      ...transaction,
      source: null,
      colour: 'red',
    });
    assert.deepEqual(JSON.parse(JSON.stringify(parsed)), transaction);
  });
});
