/**
 * The payment page's reporter (PCI DSS 11.6.1): a script or module that fails to load, a file refused for
 * its `integrity` among them, fires only an `error` event on its element, and browsers report nothing of
 * it themselves. This posts each one to the middleware's report route (`POST {endpoint}/reports`, the
 * Reporting API's `application/reports+json`), where the merchant's `onPageIntegrityReport` hook gets it.
 * Start it before the scripts it watches: the script-tag file `pg-checkout.reporter.js` with
 * `data-endpoint="/checkout"` does, placed before `pg-checkout.js`.
 */
export function watchPageIntegrity(endpoint: string, max = 10): () => void {
  const url = `${endpoint.replace(/\/$/, '')}/reports`;
  let sent = 0;
  const onError = (event: Event): void => {
    const el = event.target;
    const blockedURL =
      el instanceof HTMLScriptElement
        ? el.src
        : el instanceof HTMLLinkElement && /preload/.test(el.rel)
          ? el.href
          : '';
    if (!blockedURL || sent >= max) return;
    sent++;
    const report = {
      type: 'pg-script-error',
      // Origin and path only: a query string may carry what a report has no business holding.
      url: location.origin + location.pathname,
      body: { blockedURL },
    };
    void fetch(url, {
      method: 'POST',
      keepalive: true,
      credentials: 'omit',
      headers: { 'content-type': 'application/reports+json' },
      body: JSON.stringify([report]),
    }).catch(() => undefined);
  };
  addEventListener('error', onError, true);
  return () => removeEventListener('error', onError, true);
}
