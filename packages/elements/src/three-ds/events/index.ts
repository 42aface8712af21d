// The events of 3-D Secure, which <pg-3ds-v2> and <pg-3ds-v1> send (and <pg-checkout> passes on).
export { createPg3dsStartEvent, type Pg3dsStartDetail, type Pg3dsStartEvent } from './3ds-start.js';
export {
  createPg3dsCheckingEvent,
  type Pg3dsCheckingDetail,
  type Pg3dsCheckingEvent,
} from './3ds-checking.js';
export {
  createPg3dsCompleteEvent,
  type Pg3dsCompleteDetail,
  type Pg3dsCompleteEvent,
} from './3ds-complete.js';
