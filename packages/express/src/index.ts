export type { CheckoutStore } from './stores/store.js';
export { MemoryStore, type MemoryStoreOptions } from './stores/memory.js';
export { RedisStore, type RedisStoreOptions } from './stores/redis.js';
