/**
 * Runs `fn` after `ms` without keeping a Node process alive for it. Only Node's and Bun's timers have
 * `unref`; Deno's and workerd's `setTimeout` answer a number.
 */
export function later(fn: () => void, ms: number): void {
  const timer: unknown = setTimeout(fn, ms);
  (timer as { unref?: () => void } | undefined)?.unref?.();
}
