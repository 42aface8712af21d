import * as flow from './checkout.flow.js';

/**
 * Resolves with the drop-in's payment flow (checkout.flow.ts), undefined when it cannot be loaded. Imported
 * with the drop-in in the npm build, so at once; the script-tag file puts its loader here instead
 * (three-ds.lazy.ts), which imports it with 3-D Secure from `pg-checkout.3ds.js` beside the script.
 */
export const flowReady = (): Promise<typeof flow | undefined> => Promise.resolve(flow);
