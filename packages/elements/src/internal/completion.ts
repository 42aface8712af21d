/** The middleware's callback page posts this to the parent once it has confirmed with the gateway. */
export interface CompletionMessage {
  source: 'pg-checkout';
  type: '3ds-complete';
  reference: string;
}

/**
 * Resolves when the callback page inside `frame` says this payment is done. Anything else is
 * ignored: another origin, another window (an old attempt, another tab's frame) or another reference.
 */
export function waitForCompletion(
  frame: HTMLIFrameElement,
  expectedOrigin: string,
  reference: string,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (event: MessageEvent): void => {
      if (
        event.origin !== expectedOrigin ||
        event.source === null ||
        event.source !== frame.contentWindow
      )
        return;
      const data = event.data as Partial<CompletionMessage> | null;
      if (
        !data ||
        data.source !== 'pg-checkout' ||
        data.type !== '3ds-complete' ||
        data.reference !== reference
      ) {
        return;
      }
      window.removeEventListener('message', onMessage);
      resolve();
    };
    window.addEventListener('message', onMessage, { signal });
  });
}
