import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ConfirmRequestLenientSchema,
  ConfirmResponseSchema,
  ConfirmV1RequestSchema,
  ConfirmV2RequestSchema,
  CreatePaymentRequestLenientSchema,
  CreatePaymentRequestSchema,
  CreatePaymentResponseSchema,
  ExecuteRequestSchema,
  ExecuteResponseSchema,
  RefundMultipleRequestLenientSchema,
  RefundMultipleRequestSchema,
  RefundMultipleResponseSchema,
  RefundRequestSchema,
  Step2ConfirmRequestSchema,
  TransactionSchema,
  ThreeDSecureV2Schema,
  threeDSecureV2Step,
} from '../src/index.js';
import { failsAt, passes, transaction, visaCard, withChange } from './support.js';

const createSample = {
  creditCard: visaCard,
  transaction,
  threeDSecure: false,
  supports3dsV2: true,
  autoExecute: true,
  callbackUrl: 'https://shop.example/checkout/3ds/abc/callback',
  clientIp: '203.0.113.7',
  screenWidth: '1280',
  screenHeight: '800',
};

describe('Transaction', () => {
  it('accepts a ZAR transaction in cents', () => {
    passes(TransactionSchema, transaction);
  });
  it('refuses fractional cents, strings and long references', () => {
    failsAt(
      TransactionSchema,
      { ...transaction, amount: 100.5 },
      'amount',
      /integer number of cents/,
    );
    failsAt(
      TransactionSchema,
      { ...transaction, amount: '100' },
      'amount',
      /JSON number of cents, received string/,
    );
    failsAt(TransactionSchema, { ...transaction, amount: 0 }, 'amount', /greater than 0/);
    failsAt(
      TransactionSchema,
      { ...transaction, reference: 'r'.repeat(100) },
      'reference',
      /at most 99/,
    );
    passes(TransactionSchema, { ...transaction, reference: 'r'.repeat(99) });
    failsAt(TransactionSchema, { ...transaction, currency: 'zar' }, 'currency', /three-letter/);
  });
});

describe('Create payment (v2)', () => {
  it('accepts the full sample and a token card', () => {
    passes(CreatePaymentRequestSchema, createSample);
    passes(CreatePaymentRequestSchema, { ...createSample, creditCard: { token: 'tok' } });
  });
  it('requires clientIp and screen size for visa cards', () => {
    const noIp = withChange(createSample, (d) => delete d.clientIp);
    failsAt(CreatePaymentRequestSchema, noIp, 'clientIp', /required for visa/);
    const mc = {
      ...createSample,
      creditCard: { ...visaCard, number: '5555555555554444', type: 'mastercard' },
    };
    passes(
      CreatePaymentRequestSchema,
      withChange(mc, (d) => delete d.clientIp),
    );
  });
  it('takes screen sizes as strings of digits', () => {
    failsAt(
      CreatePaymentRequestSchema,
      { ...createSample, screenWidth: 1280 },
      'screenWidth',
      /string/,
    );
    failsAt(
      CreatePaymentRequestSchema,
      { ...createSample, screenWidth: '12.5' },
      'screenWidth',
      /pixels/,
    );
  });
  it('requires callbackUrl with supports3dsV2 and ZAR', () => {
    const noCb = withChange(createSample, (d) => delete d.callbackUrl);
    failsAt(CreatePaymentRequestSchema, noCb, 'callbackUrl', /required when supports3dsV2/);
    failsAt(
      CreatePaymentRequestSchema,
      { ...createSample, transaction: { ...transaction, currency: 'USD' } },
      'transaction.currency',
      /v3/,
    );
    failsAt(
      CreatePaymentRequestSchema,
      { ...createSample, callbackUrl: 'not a url' },
      'callbackUrl',
      /absolute/,
    );
  });
  it('requires cvv unless the payment is recurring', () => {
    const noCvv = withChange(createSample, (d) => delete d.creditCard.cvv);
    failsAt(CreatePaymentRequestSchema, noCvv, 'creditCard.cvv', /required/);
    passes(CreatePaymentRequestSchema, { ...noCvv, recurring: true, initialRef: 'PG-1' });
    passes(CreatePaymentRequestSchema, {
      ...createSample,
      creditCard: { ...visaCard, cvv: '000' },
      recurring: true,
    });
  });
  it("amex takes '000' only on subsequent recurring payments", () => {
    const amex = { ...visaCard, number: '378282246310005', type: 'amex', cvv: '000' };
    const req = { ...createSample, creditCard: amex };
    failsAt(
      CreatePaymentRequestSchema,
      req,
      'creditCard.cvv',
      /'000' only on subsequent recurring/,
    );
    passes(CreatePaymentRequestSchema, { ...req, recurring: true, initialRef: 'PG-1' });
  });
  it('lenient: drops unknown keys, null optionals are absent, wrong types still refused', () => {
    const parsed = passes(CreatePaymentRequestLenientSchema, {
      ...createSample,
      junk: 1,
      subscription: null,
      initialRef: null,
    });
    assert.equal('junk' in parsed, false);
    assert.equal(parsed.subscription, undefined);
    failsAt(
      CreatePaymentRequestLenientSchema,
      { ...createSample, autoExecute: 'yes' },
      'autoExecute',
      /true or false/,
    );
    failsAt(CreatePaymentRequestSchema, { ...createSample, junk: 1 }, '', /unknown field `junk`/);
  });
  it('validates the subscription object', () => {
    const sub = {
      reference: 'sub-1',
      interval: 'MONTHLY',
      trialDays: 7,
      firstname: 'J',
      lastname: 'D',
      email: 'j@d.example',
    };
    passes(CreatePaymentRequestSchema, { ...createSample, subscription: sub });
    failsAt(
      CreatePaymentRequestSchema,
      { ...createSample, subscription: { ...sub, email: 'nope' } },
      'subscription.email',
      /e-mail/,
    );
    failsAt(
      CreatePaymentRequestSchema,
      { ...createSample, subscription: { ...sub, reference: 'x'.repeat(100) } },
      'subscription.reference',
      /99/,
    );
    failsAt(
      CreatePaymentRequestSchema,
      { ...createSample, subscription: { ...sub, trialDays: -1 } },
      'subscription.trialDays',
      /negative/,
    );
  });
});

const step2 = {
  tdsMethodContent:
    '<iframe name="m"></iframe><form target="m"></form><script>document.forms[0].submit()</script>',
  txId: 'tx-1',
  transactionId: 'T-1',
  sessionData: null,
  acsUrl: null,
  creq: null,
};
const step3 = {
  tdsMethodContent: null,
  txId: null,
  transactionId: 'T-1',
  sessionData: 'sd',
  acsUrl: 'https://acs.example/c',
  creq: 'creq',
};

describe('Create payment responses and 3D Secure objects', () => {
  it('parses approval, V1, V2 step 2 and step 3 answers', () => {
    passes(CreatePaymentResponseSchema, {
      success: true,
      code: 1,
      message: 'Approved',
      reference: 'PG-1',
      transactionDate: '2026-11-23T09:00:00',
      newField: 1,
    });
    passes(CreatePaymentResponseSchema, {
      success: true,
      code: 2,
      reference: 'PG-1',
      threeDSecure: { acsUrl: 'https://acs.example', transactionId: 'T', paReq: 'eJy' },
    });
    assert.equal(threeDSecureV2Step(passes(ThreeDSecureV2Schema, step2)), 'method');
    assert.equal(threeDSecureV2Step(passes(ThreeDSecureV2Schema, step3)), 'challenge');
    assert.equal(threeDSecureV2Step({ ...step3, txId: 'x' }), undefined);
  });
  it('requires all six V2 fields to be present', () => {
    failsAt(
      ThreeDSecureV2Schema,
      withChange(step2, (d) => delete d.creq),
      'creq',
      /creq is required/,
    );
  });
  it('parses a decline', () => {
    const r = passes(CreatePaymentResponseSchema, {
      success: false,
      code: -1,
      message: 'Declined',
      originalErrorCode: 'fin005',
    });
    assert.equal(r.code, -1);
  });
});

describe('Confirm requests', () => {
  it('V1 takes paRes, V2 takes paRes null and cres', () => {
    passes(ConfirmV1RequestSchema, { paRes: 'eJz' });
    passes(ConfirmV2RequestSchema, { paRes: null, cres: 'eyJ' });
    failsAt(ConfirmV2RequestSchema, { paRes: 'x', cres: 'eyJ' }, 'paRes', /null/);
    failsAt(ConfirmV1RequestSchema, { paRes: '' }, 'paRes', /empty/);
  });
  it('the shared endpoint wants exactly one of paRes and cres', () => {
    passes(ConfirmRequestLenientSchema, { paRes: null, cres: 'c' });
    failsAt(ConfirmRequestLenientSchema, { paRes: null }, '', /exactly one/);
    failsAt(ConfirmRequestLenientSchema, { paRes: 'a', cres: 'c' }, '', /exactly one/);
  });
  it('Step 2 confirm needs reference, txId and transactionId', () => {
    passes(Step2ConfirmRequestSchema, { reference: 'PG-1', txId: 'tx', transactionId: 'T' });
    failsAt(
      Step2ConfirmRequestSchema,
      { reference: 'PG-1', transactionId: 'T' },
      'txId',
      /required/,
    );
  });
  it('parses the V2 authentication failure with a nested error', () => {
    const r = passes(ConfirmResponseSchema, {
      success: false,
      message: 'Authentication failed',
      originalErrorCode: 'fin006',
      error: { code: 3, message: 'failed' },
    });
    assert.equal(r.error?.code, 3);
  });
});

describe('Execute and refund', () => {
  it('execute allows 0 (reverse) but not negative amounts', () => {
    passes(ExecuteRequestSchema, { transaction: { currency: 'ZAR', amount: 0 } });
    failsAt(
      ExecuteRequestSchema,
      { transaction: { currency: 'ZAR', amount: -1 } },
      'transaction.amount',
      /negative/,
    );
    failsAt(
      ExecuteRequestSchema,
      { transaction: { currency: 'ZAR', amount: 5, reference: 'r' } },
      'transaction',
      /unknown field/,
    );
    passes(ExecuteResponseSchema, { success: true, transactionDate: '2026-11-23T09:00:00' });
  });
  it('refund takes an optional merchant reference and a positive amount', () => {
    passes(RefundRequestSchema, {
      transaction: { reference: 'refund-1', currency: 'ZAR', amount: 500 },
    });
    passes(RefundRequestSchema, { transaction: { currency: 'ZAR', amount: 500 } });
    failsAt(
      RefundRequestSchema,
      { transaction: { currency: 'ZAR', amount: 0 } },
      'transaction.amount',
      /greater than 0/,
    );
  });
  it('refund multiple: strict needs at least one item, lenient lets the gateway answer code -1', () => {
    const item = { serviceReference: 'PG-1', reference: 'r-1', currency: 'ZAR', amount: 100 };
    passes(RefundMultipleRequestSchema, { synchronous: true, transactions: [item] });
    failsAt(
      RefundMultipleRequestSchema,
      { synchronous: true, transactions: [] },
      'transactions',
      /at least one/,
    );
    failsAt(
      RefundMultipleRequestSchema,
      { synchronous: true, transactions: [{ ...item, amount: 1.5 }] },
      'transactions[0].amount',
      /integer/,
    );
    passes(RefundMultipleRequestLenientSchema, { synchronous: false, transactions: null });
    failsAt(RefundMultipleRequestSchema, { transactions: [item] }, 'synchronous', /required/);
    const r = passes(RefundMultipleResponseSchema, {
      success: true,
      message: '',
      synchronous: true,
      transactions: [
        {
          success: false,
          serviceReference: 'PG-1',
          reference: 'r-1',
          message: 'manual',
          originalErrorCode: 'fin012',
          code: 7,
        },
      ],
    });
    assert.equal(r.transactions?.[0]?.code, 7);
  });
});
