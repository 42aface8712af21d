/** Registers all four elements and exports everything a merchant's code needs. */
export { PgCheckout } from './components/checkout/checkout.js';
export { PgCardForm } from './components/card-form/card-form.js';
export { Pg3dsV2 } from './components/3ds-v2/3ds-v2.js';
export { Pg3dsV1 } from './components/3ds-v1/3ds-v1.js';
export { CheckoutApi, ClientErrorCode } from './api/client.js';
export type * from './api/types.js';
export { checkoutContext, type CheckoutContext, type PaymentSource } from './context.js';
export { defineElement } from './define.js';
export * from './events/index.js';
export { af } from './i18n/af.js';
export { en } from './i18n/en.js';
export {
  createTranslator,
  messagesFor,
  supportedLocales,
  type MessageKey,
  type Messages,
  type Translate,
} from './i18n/localize.js';
export * from './validators/index.js';
export { detectBrand, brandOf } from './card/brands.js';
export { parseExpiry } from './card/expiry.js';
export { formatCardNumber } from './card/format.js';
export { luhnValid } from './card/luhn.js';
