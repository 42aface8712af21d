import type { Context, ContextCallback, ContextType } from '@lit/context';
import type { ReactiveController, ReactiveControllerHost } from 'lit';

type Host = ReactiveControllerHost & HTMLElement;

/**
 * The `context-request` event of the community context protocol, as `@lit/context` sends and answers it
 * (its `ContextRequestEvent` carries the same four fields), so either side may be that package's.
 */
type Request<C extends Context<unknown, unknown>> = Event & {
  context: C;
  contextTarget: Element;
  callback: ContextCallback<ContextType<C>>;
  subscribe?: boolean;
};

/**
 * The part of `@lit/context`'s `ContextProvider` the drop-in uses: answers requests for `context` from
 * inside it, and calls the subscribed ones again when the value changes. About half the bytes: no
 * provider nesting (a drop-in holds no other drop-in).
 */
export class ContextProvider<C extends Context<unknown, unknown>> {
  private value?: ContextType<C>;
  private readonly subscribers = new Map<ContextCallback<ContextType<C>>, () => void>();

  constructor(host: Host, { context }: { context: C }) {
    host.addEventListener('context-request', (event) => {
      const request = event as Request<C>;
      if (
        request.context !== context ||
        (request.contextTarget ?? event.composedPath()[0]) === host
      )
        return;
      event.stopPropagation();
      const callback = request.callback;
      if (!request.subscribe) return callback(this.value as ContextType<C>);
      if (!this.subscribers.has(callback))
        this.subscribers.set(callback, () => this.subscribers.delete(callback));
      callback(this.value as ContextType<C>, this.subscribers.get(callback));
    });
  }

  setValue(value: ContextType<C>): void {
    if (Object.is(value, this.value)) return;
    this.value = value;
    for (const [callback, unsubscribe] of this.subscribers) callback(value, unsubscribe);
  }
}

/**
 * The part of `@lit/context`'s `ContextConsumer` the elements use: asks for `context` when connected,
 * subscribed, and lets go when disconnected; `callback` and a render on every value.
 */
export class ContextConsumer<C extends Context<unknown, unknown>> implements ReactiveController {
  private unsubscribe?: (() => void) | undefined;

  constructor(
    private readonly host: Host,
    private readonly options: { context: C; callback: (value: ContextType<C>) => void },
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    const request = Object.assign(new Event('context-request', { bubbles: true, composed: true }), {
      context: this.options.context,
      contextTarget: this.host,
      subscribe: true,
      callback: (value: ContextType<C>, unsubscribe?: () => void) => {
        // A newer provider took over: the old one forgets this element.
        if (this.unsubscribe !== unsubscribe) this.unsubscribe?.();
        this.unsubscribe = unsubscribe;
        this.options.callback(value);
        this.host.requestUpdate();
      },
    });
    this.host.dispatchEvent(request);
  }

  hostDisconnected(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }
}
