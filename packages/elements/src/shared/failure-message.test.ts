import { expect } from '@open-wc/testing';
import type { FinalPaymentState } from '../api/types.js';
import { af } from '../i18n/af.js';
import { en } from '../i18n/en.js';
import { createTranslator } from '../i18n/localize.js';
import { shopperMessage } from './failure-message.js';

// Every code docs/contracts.md names for the Browser API, and the ones this package makes itself.
const middlewareCodes = [
  'invalid_request',
  'card_declined',
  'authentication_failed',
  'rate_limited',
  'too_many_declines',
  'forbidden_origin',
  'not_found',
  'gateway_unavailable',
  'gateway_timeout',
  'invalid_json',
  'not_signed_in',
  'forbidden',
  'method_not_enabled',
  'conflict',
  'already_paid',
  'payload_too_large',
  'unsupported_media_type',
  'store_unavailable',
  'internal_error',
  'service_busy',
  'temporarily_unavailable',
];
const clientCodes = [
  'network_error',
  'bad_response',
  'http_502',
  'http_404',
  'http_429',
  'not_configured',
  'not_registered',
  'not_loaded',
  'aborted',
  'authentication_cancelled',
  'authentication_timeout',
];

const raw = 'RAW {"success":false} Error: ECONNRESET at gateway.js:12';
const failed = (code: string): FinalPaymentState => ({
  success: false,
  status: 'failed',
  reference: 'r1',
  code,
  message: raw,
});

describe('shopperMessage', () => {
  it('gives every failure code a sentence from the locale table, never the raw text', () => {
    for (const [locale, table] of [
      ['en', en],
      ['af', af],
    ] as const) {
      const t = createTranslator(locale);
      const sentences = new Set<string>(Object.values(table));
      for (const code of [...middlewareCodes, ...clientCodes]) {
        const text = shopperMessage(failed(code), t);
        expect(sentences.has(text), `${locale} ${code}`).to.equal(true);
        expect(text, code).not.to.contain(code);
        expect(text, code).not.to.match(/[{}]|RAW|Error/);
      }
    }
  });

  it('says what the specific codes mean', () => {
    const t = createTranslator('en');
    expect(shopperMessage(failed('not_found'), t)).to.equal(en.notFound);
    expect(shopperMessage(failed('already_paid'), t)).to.equal(en.alreadyPaid);
    expect(shopperMessage(failed('conflict'), t)).to.equal(en.paymentInProgress);
    expect(shopperMessage(failed('too_many_declines'), t)).to.equal(en.tooManyDeclines);
    expect(shopperMessage(failed('http_503'), t)).to.equal(en.unavailable);
    expect(shopperMessage(failed('something_new'), t)).to.equal(en.failed);
    expect(shopperMessage(failed('toString'), t)).to.equal(en.failed);
  });

  it('tells declines apart from failures, and insufficient funds from other declines', () => {
    const t = createTranslator('af');
    const declined = (code: string, originalErrorCode?: string): FinalPaymentState => ({
      success: false,
      status: 'declined',
      code,
      message: raw,
      ...(originalErrorCode ? { originalErrorCode } : {}),
    });
    expect(shopperMessage(declined('card_declined', 'fin051'), t)).to.equal(af.declinedFunds);
    expect(shopperMessage(declined('card_declined', 'fin005'), t)).to.equal(af.declined);
    expect(shopperMessage(declined('authentication_failed'), t)).to.equal(af.authenticationFailed);
    expect(shopperMessage(declined('odd'), t)).to.equal(af.declined);
  });

  it('says a changed total with the new total: as the page writes it, or plainly while that is made', () => {
    const changed: FinalPaymentState = {
      success: false,
      status: 'failed',
      code: 'amount_changed',
      message: raw,
      order: { amount: 44_700, currency: 'ZAR' },
    };
    const written = (cents: number, currency: string) => `${currency}:${cents}`;
    expect(shopperMessage(changed, createTranslator('en'), written)).to.equal(
      'The total is now ZAR:44700. Nothing was charged; check it and pay again.',
    );
    expect(shopperMessage(changed, createTranslator('af'), () => undefined)).to.equal(
      'Die totaal is nou 447.00 ZAR. Niks is gehef nie; kyk daarna en betaal weer.',
    );
    const override = createTranslator('en', { amountChanged: 'Now {total}.' });
    expect(shopperMessage(changed, override, written)).to.equal('Now ZAR:44700.');
  });
});
