export { CardHolderValidator } from './card-holder.js';
export { CardNumberValidator } from './card-number.js';
export { CvvValidator } from './cvv.js';
export { ExpiryValidator } from './expiry.js';
export { firstFailure, messageOf, type ValidationFailure, type Validator } from './validator.js';
