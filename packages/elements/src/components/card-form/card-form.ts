import { defineElement } from '../../define.js';
import { PgCardForm } from './card-form.component.js';

export { PgCardForm } from './card-form.component.js';

defineElement('pg-card-form', PgCardForm);

declare global {
  interface HTMLElementTagNameMap {
    'pg-card-form': PgCardForm;
  }
}
