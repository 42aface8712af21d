import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Tells a payment flow whether its element is in the document. A move (Vue `<KeepAlive>`, a portal,
 * `appendChild` elsewhere) is a disconnect then a connect: nothing may end a payment for it, so a flow
 * pauses what needs the page (frames, listeners, polls, timers: `signal` aborts on disconnect) and waits
 * with `whenConnected` for its element to come back, holding no timer while it waits.
 */
export class ConnectionController implements ReactiveController {
  private readonly host: ReactiveControllerHost & HTMLElement;
  private attachment = new AbortController();
  private readonly waiting = new Set<() => void>();

  constructor(host: ReactiveControllerHost & HTMLElement) {
    this.host = host;
    host.addController(this);
  }

  /** Aborts when the element leaves the document; a fresh one for each time it is connected. */
  get signal(): AbortSignal {
    return this.attachment.signal;
  }

  hostConnected(): void {
    if (this.attachment.signal.aborted) this.attachment = new AbortController();
    for (const wake of [...this.waiting]) wake();
  }

  hostDisconnected(): void {
    this.attachment.abort();
  }

  /** Resolves at once when connected, else when the element is connected again or `signal` aborts. */
  whenConnected(signal?: AbortSignal): Promise<void> {
    if (this.host.isConnected) return Promise.resolve();
    return new Promise((resolve) => {
      const gone = new AbortController();
      const wake = (): void => {
        this.waiting.delete(wake);
        gone.abort();
        resolve();
      };
      this.waiting.add(wake);
      signal?.addEventListener('abort', wake, { once: true, signal: gone.signal });
    });
  }
}
