import type { Context, ContextCallback, ContextEvent, ContextType } from '@lit/context';

/**
 * The drop-in's side of the context protocol (the one `@lit/context`'s `ContextConsumer` speaks): it
 * answers each `context-request` for `context` that comes from inside its host with the value, and
 * calls a subscriber again each time the value changes, until it unsubscribes (a consumer that leaves
 * the page does). `@lit/context`'s provider also announces itself with a `context-provider` event, for
 * a `ContextRoot` or an outer provider of the same context to hand it their consumers; none is used
 * here (the drop-in is defined before the parts inside it, and nests in no drop-in), and that half of
 * lit's provider was bytes every script-tag page carried for nothing.
 */
export class ContextAnswer<C extends Context<unknown, unknown>> {
  // Undefined until the first setValue, which the host makes before its first render.
  private value = undefined as ContextType<C>;
  private readonly subscriptions = new Map<ContextCallback<ContextType<C>>, () => void>();

  constructor(host: HTMLElement, context: C) {
    host.addEventListener('context-request', (event) => {
      const request = event as ContextEvent<C>;
      if (
        request.context !== context ||
        (request.contextTarget ?? request.composedPath()[0]) === host
      )
        return;
      request.stopPropagation();
      const { callback } = request;
      if (!request.subscribe) return callback(this.value);
      const subscriptions = this.subscriptions;
      let unsubscribe = subscriptions.get(callback);
      if (!unsubscribe)
        subscriptions.set(callback, (unsubscribe = () => subscriptions.delete(callback)));
      callback(this.value, unsubscribe);
    });
  }

  /** The value to answer with; subscribers hear of it when it is not the one they have. */
  setValue(value: ContextType<C>): void {
    if (Object.is(value, this.value)) return;
    this.value = value;
    for (const [callback, unsubscribe] of this.subscriptions) callback(value, unsubscribe);
  }
}
