/** Test helpers: what a component leaves attached to `window`. */

/** Records `message` listeners so a test can tell none is left behind. */
export function trackMessageListeners() {
  const live = new Set<AbortSignal | undefined>();
  const original = window.addEventListener;
  window.addEventListener = function (
    this: Window,
    type: string,
    listener: unknown,
    options?: unknown,
  ) {
    if (type === 'message') live.add((options as AddEventListenerOptions | undefined)?.signal);
    return original.call(this, type, listener as EventListener, options as AddEventListenerOptions);
  } as typeof window.addEventListener;
  return {
    leftBehind: () => [...live].filter((signal) => !signal || !signal.aborted).length,
    restore: () => (window.addEventListener = original),
  };
}
