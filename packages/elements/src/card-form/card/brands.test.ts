import { expect } from '@open-wc/testing';
import { CARD_BRANDS, CARD_TYPES, cardBrandOf } from '@pg-checkout/protocol/vocabulary';
import { acceptedBrands } from './brand-marks.js';
import { brandOf, detectBrand } from './brands.js';

// The drop-in's brands are the protocol's table (CARD_BRANDS): the brand it sees as the shopper types
// is the one the server and the gateway see, and a row added there is detected and drawn here.
describe('card brands follow CARD_BRANDS', () => {
  it('gives every four-digit prefix the brand the table gives it, with its shape', () => {
    for (let prefix = 0; prefix < 10_000; prefix += 1) {
      const pan = `${String(prefix).padStart(4, '0')}000000000000`;
      const type = cardBrandOf(pan);
      expect(brandOf(pan), pan).to.equal(type);
      const detection = detectBrand(pan);
      if (type === undefined) {
        expect(detection.kind, pan).to.equal('unsupported');
        continue;
      }
      const row = CARD_BRANDS.find((brand) => brand.type === type)!;
      expect(detection, pan).to.deep.equal({
        kind: 'brand',
        rules: { type, gaps: row.gaps, lengths: row.lengths, cvvLength: row.cvvLength },
      });
    }
  });

  it('waits on a prefix (unknown) exactly while some longer number could still be a brand', () => {
    for (const length of [1, 2, 3]) {
      for (let prefix = 0; prefix < 10 ** length; prefix += 1) {
        const head = String(prefix).padStart(length, '0');
        let couldBe = false;
        for (let rest = 0; rest < 10 ** (4 - length) && !couldBe; rest += 1)
          couldBe = cardBrandOf(`${head}${String(rest).padStart(4 - length, '0')}`) !== undefined;
        const kind = detectBrand(head).kind;
        // A prefix already inside a one-digit range (visa's 4) is a brand, not a wait.
        if (cardBrandOf(head)) expect(kind, head).to.equal('brand');
        else expect(kind, head).to.equal(couldBe ? 'unknown' : 'unsupported');
      }
    }
  });

  it('draws a mark for each brand of the table, no more', () => {
    expect([...acceptedBrands].sort()).to.deep.equal([...CARD_TYPES].sort());
  });
});
