import { defineElement } from '../shared/define.js';
import { PgCardForm } from './card-form.component.js';

export { PgCardForm } from './card-form.component.js';
// Event types and their GlobalEventHandlersEventMap entries load with this entry, not only the root.
export type * from '../shared/events/index.js';
export type * from '../three-ds/events/index.js';

defineElement('pg-card-form', PgCardForm);

declare global {
  interface HTMLElementTagNameMap {
    'pg-card-form': PgCardForm;
  }
}
