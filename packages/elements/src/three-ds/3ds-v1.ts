import { defineElement } from '../shared/define.js';
import { Pg3dsV1 } from './3ds-v1.component.js';

export { Pg3dsV1 } from './3ds-v1.component.js';
// Event types and their GlobalEventHandlersEventMap entries load with this entry, not only the root.
export type * from '../shared/events/index.js';
export type * from './events/index.js';

defineElement('pg-3ds-v1', Pg3dsV1);

declare global {
  interface HTMLElementTagNameMap {
    'pg-3ds-v1': Pg3dsV1;
  }
}
