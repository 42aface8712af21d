/**
 * Resolves true once `<pg-3ds-v2>` and `<pg-3ds-v1>` can run, false when they cannot be loaded. Imported
 * with the drop-in in the npm build, so true at once; the script-tag file puts its loader here instead
 * (three-ds.lazy.ts), which imports `pg-checkout.3ds.js` from beside the script.
 */
export const threeDSReady = (): Promise<boolean> => Promise.resolve(true);
