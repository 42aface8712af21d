import { defineElement } from '../shared/define.js';
import { PgCardForm } from '../card-form/card-form.component.js';
import { Pg3dsV1 } from '../three-ds/3ds-v1.component.js';
import { Pg3dsV2 } from '../three-ds/3ds-v2.component.js';
import { PgCheckout } from './checkout.component.js';

export { PgCheckout } from './checkout.component.js';
// Event types and their GlobalEventHandlersEventMap entries load with this entry, not only the root.
export type * from '../shared/events/index.js';
export type * from '../three-ds/events/index.js';

// The drop-in renders the other three, so defining it defines them. It goes first: a merchant's own
// <pg-card-form> parsed inside it before this ran (a script tag, a server-rendered page) upgrades after
// it, so the form's context request reaches a drop-in that answers.
defineElement('pg-checkout', PgCheckout);
defineElement('pg-card-form', PgCardForm);
defineElement('pg-3ds-v2', Pg3dsV2);
defineElement('pg-3ds-v1', Pg3dsV1);

declare global {
  interface HTMLElementTagNameMap {
    'pg-checkout': PgCheckout;
  }
}
