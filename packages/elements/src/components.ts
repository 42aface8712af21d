/** The element classes without registering any tag (for scoped registries or your own tag names). */
export { PgCardForm } from './card-form/card-form.component.js';
export { PgCheckout } from './checkout/checkout.component.js';
export { Pg3dsV1 } from './three-ds/3ds-v1.component.js';
export { Pg3dsV2 } from './three-ds/3ds-v2.component.js';
