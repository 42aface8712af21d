export * from './status.js';
export { createPgSubmitEvent, type PgSubmitDetail, type PgSubmitEvent } from './submit.js';
export {
  createPgStatusChangeEvent,
  type PgStatusChangeDetail,
  type PgStatusChangeEvent,
} from './status-change.js';
export { createPgApprovedEvent, type PgApprovedDetail, type PgApprovedEvent } from './approved.js';
export { createPgPendingEvent, type PgPendingDetail, type PgPendingEvent } from './pending.js';
export { createPgDeclinedEvent, type PgDeclinedDetail, type PgDeclinedEvent } from './declined.js';
export { createPgFailedEvent, type PgFailedDetail, type PgFailedEvent } from './failed.js';
export { createPgRedirectEvent, type PgRedirectDetail, type PgRedirectEvent } from './redirect.js';
