import { fail, type Validator } from './validator.js';

/** Letters in any script plus the punctuation real names carry; 2 to 100 characters. */
export class CardHolderValidator implements Validator<string> {
  readonly name = 'CardHolder';

  execute(value: string) {
    const name = value.trim();
    if (name === '') return fail(this.name, 'cardHolderRequired');
    if (name.length < 2 || name.length > 100 || !/^[\p{L}\p{M}][\p{L}\p{M} .'’-]*$/u.test(name)) {
      return fail(this.name, 'cardHolderInvalid');
    }
    return undefined;
  }
}
