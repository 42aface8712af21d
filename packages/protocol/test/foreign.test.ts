import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AddForeignTransferRequestSchema,
  CreateForeignPaymentRequestLenientSchema,
  CreateForeignPaymentRequestSchema,
  CreateForeignPaymentResponseSchema,
  EditForeignPaymentRequestSchema,
  ForeignChangeResponseSchema,
  checkTransferShare,
  maxTransferable,
} from '../src/index.js';
import { consumer, failsAt, passes, urls } from './support.js';

const usd = { reference: 'trip-1', currency: 'USD', amount: 100000 };
const transfer = (amount: number) => ({
  reference: 'trip-1-split',
  toMerchants: [{ currency: 'USD', amount, merchantId: 42, merchantReference: 'aff-1' }],
});
const sample = {
  transaction: usd,
  urls,
  consumer,
  authorize: true,
  description: 'Flight CPT-LHR',
  transactionDate: '2026-12-24',
  destinationCountry: 'GB',
  pax: 2,
  transfer: transfer(90000),
};

describe('v3 create', () => {
  it('accepts the sample with a 90% transfer', () => {
    passes(CreateForeignPaymentRequestSchema, sample);
  });
  it('refuses transfers above 90% of a non-ZAR amount', () => {
    failsAt(
      CreateForeignPaymentRequestSchema,
      { ...sample, transfer: transfer(90001) },
      'transfer.toMerchants',
      /90%/,
    );
  });
  it('lets ZAR transfers reach the full amount but not beyond', () => {
    const zar = { ...sample, transaction: { ...usd, currency: 'ZAR' }, transfer: transfer(100000) };
    passes(CreateForeignPaymentRequestSchema, zar);
    failsAt(
      CreateForeignPaymentRequestSchema,
      { ...zar, transfer: transfer(100001) },
      'transfer.toMerchants',
      /exceeds the payment amount/,
    );
  });
  it('checks date format, pax and urls', () => {
    failsAt(
      CreateForeignPaymentRequestSchema,
      { ...sample, transactionDate: '24/12/2026' },
      'transactionDate',
      /yyyy-MM-dd/,
    );
    failsAt(
      CreateForeignPaymentRequestSchema,
      { ...sample, transactionDate: '2026-02-30' },
      'transactionDate',
      /real date/,
    );
    failsAt(CreateForeignPaymentRequestSchema, { ...sample, pax: 0 }, 'pax', /at least 1/);
    // No minimum in the spec: a server takes 0 (an unset number) and refuses only negatives.
    passes(CreateForeignPaymentRequestLenientSchema, { ...sample, pax: 0 });
    failsAt(CreateForeignPaymentRequestLenientSchema, { ...sample, pax: -1 }, 'pax', /negative/);
    failsAt(CreateForeignPaymentRequestSchema, { ...sample, urls: undefined }, 'urls', /required/);
    failsAt(
      CreateForeignPaymentRequestSchema,
      { ...sample, urls: { ...urls, success: 'ftp://x' } },
      'urls.success',
      /http/,
    );
    passes(CreateForeignPaymentRequestLenientSchema, { ...sample, urls: null });
  });
  it('parses the answers, including code 3 and 19 failures', () => {
    passes(CreateForeignPaymentResponseSchema, {
      success: true,
      reference: 'PG-9',
      code: 1,
      message: '',
      redirectUrl: 'https://pay.example/p/PG-9',
    });
    passes(CreateForeignPaymentResponseSchema, {
      success: false,
      code: 19,
      message: 'No payment page',
      originalErrorCode: '',
    });
  });
});

describe('v3 edit and transfers', () => {
  it('edit accepts partial changes', () => {
    passes(EditForeignPaymentRequestSchema, {
      description: 'New',
      pax: 3,
      consumer: { email: 'a@b.example' },
    });
    failsAt(EditForeignPaymentRequestSchema, { amount: 1 }, '', /unknown field `amount`/);
  });
  it('add transfer needs a transfer with at least one receiver', () => {
    passes(AddForeignTransferRequestSchema, { transfer: transfer(1000) });
    failsAt(
      AddForeignTransferRequestSchema,
      { transfer: { reference: 'x', toMerchants: [] } },
      'transfer.toMerchants',
      /at least one/,
    );
    failsAt(AddForeignTransferRequestSchema, {}, 'transfer', /required/);
  });
  it('the refusal on the execution day parses as success false, code 1', () => {
    const r = passes(ForeignChangeResponseSchema, {
      success: false,
      reference: 'PG-9',
      code: 1,
      message: 'Changes are not allowed',
    });
    assert.equal(r.code, 1);
  });
  it('maxTransferable and checkTransferShare', () => {
    assert.equal(maxTransferable({ currency: 'EUR', amount: 999 }), 899);
    assert.equal(maxTransferable({ currency: 'ZAR', amount: 999 }), 999);
    assert.equal(checkTransferShare(usd, transfer(90000)), undefined);
    assert.match(checkTransferShare(usd, transfer(90001)) ?? '', /at most 90000/);
  });
});
