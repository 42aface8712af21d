import { defineElement } from '../shared/define.js';
import { Pg3dsV2 } from './3ds-v2.component.js';

export { Pg3dsV2 } from './3ds-v2.component.js';
// Event types and their GlobalEventHandlersEventMap entries load with this entry, not only the root.
export type * from '../shared/events/index.js';
export type * from './events/index.js';

defineElement('pg-3ds-v2', Pg3dsV2);

declare global {
  interface HTMLElementTagNameMap {
    'pg-3ds-v2': Pg3dsV2;
  }
}
