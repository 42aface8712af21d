/** The element classes without registering any tag (for scoped registries or your own tag names). */
export { PgCardForm } from './components/card-form/card-form.component.js';
export { PgCheckout } from './components/checkout/checkout.component.js';
export { Pg3dsV1 } from './components/3ds-v1/3ds-v1.component.js';
export { Pg3dsV2 } from './components/3ds-v2/3ds-v2.component.js';
