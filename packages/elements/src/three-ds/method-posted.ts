import { sleep } from '../shared/sleep.js';

/**
 * Resolves once every frame inside the method document has left its initial `about:blank` for the
 * bank's answer (so the bank has the method form), or after `limitMs`. The method page is the
 * middleware's own (same origin) or srcdoc; a cross-origin method page cannot be looked into.
 */
export async function methodPosted(
  frame: HTMLIFrameElement,
  limitMs: number,
  signal: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!signal.aborted && Date.now() < deadline) {
    let inner: HTMLIFrameElement[];
    try {
      inner = [...(frame.contentDocument?.querySelectorAll('iframe') ?? [])];
    } catch {
      return;
    }
    const waiting = inner.some((child) => {
      try {
        return child.contentWindow?.location.href === 'about:blank';
      } catch {
        return false; // cross-origin now: the bank's page is there
      }
    });
    if (!waiting) return;
    await sleep(20, signal);
  }
}
