import { expect } from '@open-wc/testing';
import type { CheckoutErrorCode } from '@pg-checkout/protocol/browser';
import { en } from '../i18n/en.js';
import type { MessageKey } from '../i18n/messages.js';
import { codes, meaningOf, type CodeMeaning, type KnownCode } from './codes.js';

// What the compiler refuses (npm run typecheck compiles this file; an unused @ts-expect-error fails it).
// @ts-expect-error a code the middleware does not answer is not a CheckoutErrorCode
const unknownCode: CheckoutErrorCode = 'no_such_code';
// @ts-expect-error the table's keys are the known codes only: a new code has no line until codes.ts names it
const newCode: keyof typeof codes = 'brand_new_code';
const { card_declined: _declined, ...withoutOne } = codes;
// @ts-expect-error a table that leaves a code out does not compile
const partial: typeof codes = withoutOne;
const complete: Readonly<Record<KnownCode, CodeMeaning | MessageKey>> = codes;

const flagged = (flag: keyof CodeMeaning) =>
  Object.keys(codes)
    .filter((code) => meaningOf(code)![flag])
    .sort();

describe('codes', () => {
  it('gives every code a sentence of the English table', () => {
    for (const code of Object.keys(codes))
      expect(en, code).to.have.property(meaningOf(code)!.message);
    expect(Object.keys(partial)).not.to.include('card_declined');
    expect(complete).to.equal(codes);
  });

  it('knows nothing about a code it was not given, whatever the prototype has', () => {
    expect(meaningOf(unknownCode)).to.equal(undefined);
    expect(meaningOf(newCode)).to.equal(undefined);
    expect(meaningOf('toString')).to.equal(undefined);
    expect(meaningOf('constructor')).to.equal(undefined);
    expect(meaningOf('http_5030')).to.equal(undefined);
  });

  it('reads an answer that was not the contract by its HTTP status', () => {
    expect(meaningOf('http_502')).to.deep.equal({
      message: 'unavailable',
      transient: true,
      askOrder: true,
    });
    expect(meaningOf('http_429')).to.deep.equal({ message: 'rateLimited' });
    expect(meaningOf('http_404')).to.deep.equal({ message: 'notFound' });
    expect(meaningOf('http_400')).to.deep.equal({ message: 'failed' });
  });

  // The lists these flags replaced (completion.ts, checkout.component.ts), code for code.
  it('keeps asking, asks the order, keeps the entry and ends the order for the codes it did before', () => {
    expect(flagged('transient')).to.deep.equal(
      [
        'network_error',
        'bad_response',
        'rate_limited',
        'gateway_unavailable',
        'gateway_timeout',
        'store_unavailable',
        'internal_error',
        'temporarily_unavailable',
        'service_busy',
      ].sort(),
    );
    expect(flagged('askOrder')).to.deep.equal(
      ['already_paid', 'bad_response', 'gateway_timeout', 'network_error'].sort(),
    );
    expect(flagged('unsettled')).to.deep.equal(['aborted', 'network_error', 'not_loaded']);
    expect(flagged('closesOrder')).to.deep.equal(['order_changed', 'outcome_unknown']);
  });
});
