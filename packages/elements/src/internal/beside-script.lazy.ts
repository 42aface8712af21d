// The script tag's own URL, known only while it runs (the script-tag build runs every module then).
const script = (document.currentScript as HTMLScriptElement | null)?.src;

/**
 * Imports a file the script-tag build ships beside `pg-checkout.js` (`pg-checkout.3ds.js`,
 * `pg-checkout.af.js`), from the folder the script itself came from; rejects when that is unknown.
 */
export const importBesideScript = <T>(file: string): Promise<T> =>
  script
    ? (import(new URL(file, script).href) as Promise<T>)
    : Promise.reject(new Error('no script URL'));
