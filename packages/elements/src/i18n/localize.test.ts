import { expect } from '@open-wc/testing';
import { af } from './af.js';
import { en } from './en.js';
import { createTranslator, format, messagesFor } from './localize.js';

describe('translations', () => {
  it('has every English key in Afrikaans, each translated and non-empty', () => {
    expect(Object.keys(af).sort()).to.deep.equal(Object.keys(en).sort());
    for (const value of Object.values(af)) expect(value).to.be.a('string').and.not.equal('');
  });
  it('keeps the same placeholders in both tables', () => {
    const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(af[key]), key).to.deep.equal(placeholders(en[key]));
    }
  });
  it('picks a table by language and falls back to English', () => {
    expect(messagesFor('af-ZA')).to.equal(af);
    expect(messagesFor('zu')).to.equal(en);
    expect(messagesFor(undefined)).to.equal(en);
  });
  it('applies per-string overrides over the locale table', () => {
    const t = createTranslator('af', { pay: 'Koop', payAmount: 'Koop vir {amount}' });
    expect(t('pay')).to.equal('Koop');
    expect(t('payAmount', { amount: 'R 10,00' })).to.equal('Koop vir R 10,00');
    expect(t('cancel')).to.equal('Kanselleer');
  });
  it('leaves unknown placeholders visible', () =>
    expect(format('{a} {b}', { a: 1 })).to.equal('1 {b}'));

  it("writes Afrikaans' ’n one way, with the typographic apostrophe", () => {
    for (const [key, text] of Object.entries(af)) expect(text, key).not.to.match(/(^|\s)'n\b/);
  });
});
