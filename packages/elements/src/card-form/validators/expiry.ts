import { isExpired, parseExpiry } from '../card/expiry.js';
import { fail, type Validator } from './validator.js';

/** A real month that has not ended, at most 20 years ahead. `now` is injectable for tests. */
export class ExpiryValidator implements Validator<string> {
  readonly name = 'Expiry';

  constructor(private readonly now: () => Date = () => new Date()) {}

  execute(value: string) {
    if (value.trim() === '') return fail(this.name, 'expiryRequired');
    const expiry = parseExpiry(value);
    if (!expiry) return fail(this.name, 'expiryInvalid');
    const today = this.now();
    if (isExpired(expiry, today)) return fail(this.name, 'expiryPast');
    if (expiry.year > today.getFullYear() + 20) return fail(this.name, 'expiryTooFar');
    return undefined;
  }
}
