import * as steps from './payment-flow.steps.js';

/**
 * Resolves with the payment flow's steps after Pay (payment-flow.steps.ts), undefined when they cannot be
 * loaded. Imported with the drop-in in the npm build, so at once; the script-tag file puts its loader here
 * instead (three-ds.lazy.ts), which imports them with 3-D Secure from `pg-checkout.3ds.js` beside the script.
 */
export const flowReady = (): Promise<typeof steps | undefined> => Promise.resolve(steps);
