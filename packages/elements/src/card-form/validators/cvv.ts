import { fail, type Validator } from './validator.js';

/** Exactly `length` digits: 3 for Visa, Mastercard and Diners, 4 for Amex (the gateway's rule). */
export class CvvValidator implements Validator<string> {
  readonly name = 'Cvv';

  constructor(private readonly length: () => number) {}

  execute(value: string) {
    if (value === '') return fail(this.name, 'cvvRequired');
    const length = this.length();
    if (!new RegExp(`^\\d{${length}}$`).test(value))
      return fail(this.name, 'cvvLength', { length });
    return undefined;
  }
}
