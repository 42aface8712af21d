/** Makes `navigator.onLine` say `value` for a test; `undefined` gives the browser's own back (an `afterEach`). */
export function setOnline(value: boolean | undefined): void {
  if (value === undefined) delete (navigator as { onLine?: boolean }).onLine;
  else Object.defineProperty(navigator, 'onLine', { get: () => value, configurable: true });
}
