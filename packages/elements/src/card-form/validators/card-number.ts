import { detectBrand } from '../card/brands.js';
import { digitsOnly } from '../card/format.js';
import { luhnValid } from '../card/luhn.js';
import { fail, type Validator } from './validator.js';

/** The number's brand is one the gateway takes, it has one of the brand's lengths and passes Luhn. */
export class CardNumberValidator implements Validator<string> {
  readonly name = 'CardNumber';

  execute(value: string) {
    const digits = digitsOnly(value);
    if (digits === '') return fail(this.name, 'cardNumberRequired');
    const detection = detectBrand(digits);
    if (detection.kind === 'unsupported') return fail(this.name, 'cardNumberUnsupported');
    if (detection.kind === 'unknown') return fail(this.name, 'cardNumberIncomplete');
    const { lengths } = detection.rules;
    if (digits.length < Math.min(...lengths)) return fail(this.name, 'cardNumberIncomplete');
    if (!lengths.includes(digits.length) || !luhnValid(digits))
      return fail(this.name, 'cardNumberInvalid');
    return undefined;
  }
}
