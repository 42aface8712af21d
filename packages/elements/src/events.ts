// Every event the elements send, with its detail type and GlobalEventHandlersEventMap entry: the shop's
// (shared/events) and 3-D Secure's (three-ds/events).
export * from './shared/events/index.js';
export * from './three-ds/events/index.js';
