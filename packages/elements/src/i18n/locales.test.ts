import { expect } from '@open-wc/testing';
import { amountLocale, quickAmount } from './amount.js';
import LOCALES, { en, type BesideLocale, type LocaleCode } from './locales.js';
import { createTranslator, messagesFor, supportedLocales } from './localize.js';
import type { Messages } from './messages.js';

// Compile time: the script tag's global gets a loader for every locale but English, from the table.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const besideFollowsTable: Same<BesideLocale, Exclude<LocaleCode, 'en'>> = true;

const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();

// Every locale of the one table (locales.ts) is offered, complete and spoken: a row added there is
// checked here without this file changing.
describe('the locales table', () => {
  it('is what the translator offers, in its order', () => {
    expect(besideFollowsTable).to.equal(true);
    expect(supportedLocales).to.deep.equal(Object.keys(LOCALES));
    expect(supportedLocales[0]).to.equal('en');
  });

  for (const code of Object.keys(LOCALES)) {
    it(`${code}: every English key, translated, with English's placeholders, and spoken`, () => {
      const table = LOCALES[code]!;
      // In the npm build every table is in place (the script tag puts loaders in place of all but English's).
      expect(table).to.be.an('object');
      const messages = table as Messages;
      expect(Object.keys(messages).sort()).to.deep.equal(Object.keys(en).sort());
      for (const key of Object.keys(en) as (keyof Messages)[]) {
        expect(messages[key], `${code}.${key}`).to.be.a('string').and.not.equal('');
        expect(placeholders(messages[key]), `${code}.${key}`).to.deep.equal(placeholders(en[key]));
      }
      expect(messagesFor(`${code}-ZA`)).to.equal(messages);
      expect(createTranslator(code)('pay')).to.equal(messages.pay);
    });

    it(`${code}: each amount written without Intl is what Intl writes`, () => {
      for (const currency of ['ZAR', 'USD', 'EUR', 'GBP', 'JPY']) {
        const tag = amountLocale(code, currency);
        for (const cents of [0, 1, 99, 100, 123_456, 1_000_000_000]) {
          const quick = quickAmount(tag, currency, cents);
          if (quick === undefined) continue;
          const intl = new Intl.NumberFormat(tag, { style: 'currency', currency });
          expect(quick, `${tag} ${currency} ${cents}`).to.equal(intl.format(cents / 100));
        }
      }
    });
  }
});
