import { expect } from '@open-wc/testing';
import { brandOf, detectBrand } from './brands.js';
import { formatExpiry, isExpired, parseExpiry } from './expiry.js';
import { formatCardNumber, formatCvv } from './format.js';
import { luhnValid } from './luhn.js';

describe('brand detection', () => {
  it('knows the four brands, mastercard 2-series included', () => {
    expect(brandOf('4')).to.equal('visa');
    expect(brandOf('51')).to.equal('mastercard');
    expect(brandOf('2223')).to.equal('mastercard');
    expect(brandOf('34')).to.equal('amex');
    expect(brandOf('37')).to.equal('amex');
    expect(brandOf('36')).to.equal('diners');
    expect(brandOf('3056')).to.equal('diners');
  });
  it('waits when the prefix is ambiguous, refuses other brands', () => {
    expect(detectBrand('3').kind).to.equal('unknown');
    expect(detectBrand('').kind).to.equal('unknown');
    expect(detectBrand('6011').kind).to.equal('unsupported');
    expect(detectBrand('9').kind).to.equal('unsupported');
  });
  it('carries the cvv length of the brand', () => {
    const amex = detectBrand('378282246310005');
    expect(amex.kind === 'brand' && amex.rules.cvvLength).to.equal(4);
  });
});

describe('luhn', () => {
  it('checks', () => {
    expect(luhnValid('4111111111111111')).to.equal(true);
    expect(luhnValid('4111111111111112')).to.equal(false);
    expect(luhnValid('')).to.equal(false);
  });
});

describe('card number formatting', () => {
  it('groups 4-4-4-4 for visa and 4-6-5 for amex', () => {
    expect(formatCardNumber('4111111111111111').display).to.equal('4111 1111 1111 1111');
    expect(formatCardNumber('378282246310005').display).to.equal('3782 822463 10005');
    expect(formatCardNumber('30569309025904').display).to.equal('3056 930902 5904');
  });
  it('takes pasted spaces and dashes and keeps only the digits as the value', () => {
    const f = formatCardNumber('4111-1111 1111-1111');
    expect(f.value).to.equal('4111111111111111');
    expect(f.display).to.equal('4111 1111 1111 1111');
  });
  it('stops at the longest length of the brand', () => {
    expect(formatCardNumber('3782822463100051234').value).to.equal('378282246310005');
  });
  it('keeps the caret on its digit when a group shifts', () => {
    // typed "9" after "4111 1" -> "4111 19|111 1"
    const f = formatCardNumber('4111 191111 1', 7);
    expect(f.display).to.equal('4111 1911 111');
    expect(f.caret).to.equal(7);
    // caret after the 4th digit stays before the space
    expect(formatCardNumber('41111', 4).caret).to.equal(4);
    expect(formatCardNumber('41111', 5).caret).to.equal(6);
  });
  it('cuts a cvv to its length', () => expect(formatCvv('12a34', 3).value).to.equal('123'));
});

describe('expiry', () => {
  it('parses MM/YY, MM / YYYY and YYYY-MM', () => {
    expect(parseExpiry('08/27')).to.deep.equal({ month: 8, year: 2027 });
    expect(parseExpiry('08 / 2027')).to.deep.equal({ month: 8, year: 2027 });
    expect(parseExpiry('2027-08')).to.deep.equal({ month: 8, year: 2027 });
    expect(parseExpiry('0827')).to.deep.equal({ month: 8, year: 2027 });
    expect(parseExpiry('13/27')).to.equal(undefined);
    expect(parseExpiry('08/2')).to.equal(undefined);
  });
  it('formats typing as MM / YY', () => {
    expect(formatExpiry('0827').display).to.equal('08 / 27');
    expect(formatExpiry('4').display).to.equal('04');
    expect(formatExpiry('1/').display).to.equal('01');
    expect(formatExpiry('2027-08').display).to.equal('08 / 27');
    expect(formatExpiry('08/2030').display).to.equal('08 / 2030');
  });
  it('keeps the caret after the digit typed', () => {
    expect(formatExpiry('083', 3)).to.deep.equal({ display: '08 / 3', value: '083', caret: 6 });
    expect(formatExpiry('08 / 27', 2).caret).to.equal(2);
  });
  it('knows when a card has expired', () => {
    const now = new Date(2026, 10, 23);
    expect(isExpired({ month: 11, year: 2026 }, now)).to.equal(false);
    expect(isExpired({ month: 10, year: 2026 }, now)).to.equal(true);
  });
});
