import { expect } from '@open-wc/testing';
import { amountLocale, quickAmount } from './amount.js';

const intl = (locale: string, currency: string, cents: number) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);

// Edges of each grouping and of the cents, then a spread of amounts from cents to billions.
const amounts = [
  0, 1, 9, 10, 50, 99, 100, 101, 999, 1000, 9999, 10_000, 12_345, 99_999, 100_000, 123_456, 999_999,
  1_000_000, 1_234_567, 10_000_000, 99_999_999, 100_000_000, 123_456_789, 1_000_000_000,
  9_999_999_999, 123_456_789_012, 9_999_999_999_999,
];
let seed = 7;
for (let i = 0; i < 500; i++) {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  amounts.push(Math.floor((seed / 2 ** 31) * 10 ** (1 + (i % 12))));
}

describe('quickAmount', () => {
  const pairs: [string, string][] = [
    ['en', 'ZAR'],
    ['af', 'ZAR'],
    ['en-ZA', 'ZAR'],
    ['af-ZA', 'ZAR'],
    ['en', 'USD'],
    ['en', 'EUR'],
    ['en', 'GBP'],
  ];
  for (const [lang, currency] of pairs) {
    it(`writes ${lang} ${currency} exactly as this browser's Intl does`, () => {
      const locale = amountLocale(lang, currency);
      for (const cents of amounts) {
        const quick = quickAmount(locale, currency, cents);
        expect(quick, `${locale} ${currency} ${cents}`).to.be.a('string');
        expect(quick, `${locale} ${currency} ${cents}`).to.equal(intl(locale, currency, cents));
      }
    });
  }

  it('leaves other locales, currencies and amounts to Intl', () => {
    expect(quickAmount('de', 'ZAR', 100)).to.equal(undefined);
    expect(quickAmount('en-ZA', 'USD', 100)).to.equal(undefined);
    expect(quickAmount('en', 'JPY', 100)).to.equal(undefined);
    expect(quickAmount('en-ZA', 'ZAR', -100)).to.equal(undefined);
    expect(quickAmount('en-ZA', 'ZAR', 100.5)).to.equal(undefined);
    expect(quickAmount('en-ZA', 'ZAR', Number.NaN)).to.equal(undefined);
    expect(quickAmount('en-ZA', 'ZAR', 1e13)).to.equal(undefined);
  });
});
