import { expect } from '@open-wc/testing';
import { createTranslator } from '../../i18n/localize.js';
import {
  CardHolderValidator,
  CardNumberValidator,
  CvvValidator,
  ExpiryValidator,
  messageOf,
} from './index.js';

const en = createTranslator('en');
const af = createTranslator('af');

describe('CardNumberValidator', () => {
  const v = new CardNumberValidator();
  const key = (value: string) => v.execute(value)?.key;

  it('accepts the test cards of every brand, with or without spaces', () => {
    for (const n of [
      '4111111111111111',
      '4111 1111 1111 1111',
      '5555555555554444',
      '2223003122003222',
      '378282246310005',
      '30569309025904',
    ]) {
      expect(v.execute(n), n).to.equal(undefined);
    }
  });
  it('asks for a number when empty', () => expect(key('')).to.equal('cardNumberRequired'));
  it('refuses brands the gateway does not take', () => {
    expect(key('6011111111111117')).to.equal('cardNumberUnsupported');
    expect(key('9999')).to.equal('cardNumberUnsupported');
  });
  it('says too short before the brand length is reached', () =>
    expect(key('411111111111')).to.equal('cardNumberIncomplete'));
  it('fails Luhn', () => expect(key('4111111111111112')).to.equal('cardNumberInvalid'));
  it('fails a length the brand does not have', () =>
    expect(key('41111111111111111')).to.equal('cardNumberInvalid'));
  it('has English and Afrikaans messages', () => {
    const failure = v.execute('4111111111111112');
    if (!failure) throw new Error('expected a failure');
    expect(messageOf(failure, en)).to.equal(
      'This card number is not valid. Check it and try again.',
    );
    expect(messageOf(failure, af)).to.contain('nie geldig nie');
  });
});

describe('CardHolderValidator', () => {
  const v = new CardHolderValidator();
  it('accepts real names', () => {
    for (const n of ['Jo Soap', "Anne-Marie O'Neill", 'J. du Plessis', 'Zoë Nkosi'])
      expect(v.execute(n), n).to.equal(undefined);
  });
  it('requires a name', () => expect(v.execute('   ')?.key).to.equal('cardHolderRequired'));
  it('refuses digits and single letters', () => {
    expect(v.execute('4111 1111')?.key).to.equal('cardHolderInvalid');
    expect(v.execute('J')?.key).to.equal('cardHolderInvalid');
  });
  it('localizes', () =>
    expect(messageOf(v.execute('')!, af)).to.equal('Voer die naam op die kaart in.'));
});

describe('ExpiryValidator', () => {
  const v = new ExpiryValidator(() => new Date(2026, 10, 23));
  it('accepts the shapes people and autofill type', () => {
    for (const s of ['12/26', '11 / 26', '08/2030', '2027-08', '0827', '1/28'])
      expect(v.execute(s), s).to.equal(undefined);
  });
  it('treats the current month as valid and last month as expired', () => {
    expect(v.execute('11/26')).to.equal(undefined);
    expect(v.execute('10/26')?.key).to.equal('expiryPast');
  });
  it('requires, parses and bounds the date', () => {
    expect(v.execute('')?.key).to.equal('expiryRequired');
    expect(v.execute('13/27')?.key).to.equal('expiryInvalid');
    expect(v.execute('12')?.key).to.equal('expiryInvalid');
    expect(v.execute('01/60')?.key).to.equal('expiryTooFar');
  });
  it('localizes', () =>
    expect(messageOf(v.execute('10/26')!, en)).to.equal('This card has expired.'));
});

describe('CvvValidator', () => {
  it('wants 3 digits for visa and 4 for amex', () => {
    let length = 3;
    const v = new CvvValidator(() => length);
    expect(v.execute('123')).to.equal(undefined);
    expect(v.execute('1234')?.key).to.equal('cvvLength');
    length = 4;
    expect(v.execute('1234')).to.equal(undefined);
    const failure = v.execute('123');
    expect(failure?.params).to.deep.equal({ length: 4 });
    expect(messageOf(failure!, en)).to.equal('The security code has 4 digits.');
    expect(messageOf(failure!, af)).to.equal('Die sekuriteitskode het 4 syfers.');
  });
  it('requires a code', () =>
    expect(new CvvValidator(() => 3).execute('')?.key).to.equal('cvvRequired'));
});
