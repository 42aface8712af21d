/** The integrity (SRI) of each file the script tag loads, written in by build.mjs, which builds them first. */
declare const PG_INTEGRITY: Record<string, string>;

// The script tag itself, known only while it runs (the script-tag build runs every module then).
const tag = document.currentScript as HTMLScriptElement | null;

/**
 * Imports a file the script-tag build ships beside `pg-checkout.js` (`pg-checkout.3ds.js`,
 * `pg-checkout.af.js`), from the folder the script itself came from, once a `modulepreload` with its
 * integrity has loaded it: `import()` then runs the checked module and fetches nothing, and a file that
 * fails its check never runs. Rejects when the script's URL is unknown or the file did not load.
 */
export const importBesideScript = <T>(file: string): Promise<T> =>
  new Promise((loaded, failed) => {
    const link = Object.assign(document.createElement('link'), {
      rel: 'modulepreload',
      href: new URL(file, tag!.src).href,
      integrity: PG_INTEGRITY[file]!,
      crossOrigin: '',
      nonce: tag!.nonce,
      onload: () => loaded(import(link.href) as Promise<T>),
      onerror: failed,
    });
    document.head.append(link);
  });
