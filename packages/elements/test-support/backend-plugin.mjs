/** Placeholder replaced below. */
export function backendPlugin() {
  return { name: 'pg-backend' };
}
