/** Registers all four elements and exports everything a merchant's code needs. */
export { PgCheckout } from './checkout/checkout.js';
export { PgCardForm } from './card-form/card-form.js';
export { Pg3dsV2 } from './three-ds/3ds-v2.js';
export { Pg3dsV1 } from './three-ds/3ds-v1.js';
export { CheckoutApi, ClientErrorCode } from './api/client.js';
export type * from './api/types.js';
export { checkoutContext, type CheckoutContext, type PaymentSource } from './shared/context.js';
export { defineElement } from './shared/define.js';
export * from './events.js';
// Each locale's messages by its code (`en`, `af`), and the table they come from.
export * from './i18n/locales.js';
export {
  createTranslator,
  messagesFor,
  supportedLocales,
  type MessageKey,
  type Messages,
  type Translate,
} from './i18n/localize.js';
export * from './card-form/validators/index.js';
export { detectBrand, brandOf } from './card-form/card/brands.js';
export { parseExpiry } from './card-form/card/expiry.js';
export { formatCardNumber } from './card-form/card/format.js';
export { luhnValid } from './card-form/card/luhn.js';
