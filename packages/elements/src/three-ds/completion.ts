import { meaningOf } from '../api/codes.js';
import type { FinalPaymentState, PaymentState } from '../api/types.js';
import { sleep, type Clock } from '../shared/sleep.js';

/** The middleware's callback page posts this to the parent once it has confirmed with the gateway. */
export interface CompletionMessage {
  source: 'pg-checkout';
  type: '3ds-complete';
  reference: string;
}

/** How a challenge ended, as far as completion is concerned. */
export type Completion = { state: FinalPaymentState };

export interface CompletionOptions {
  /** The element's own challenge frame: only its window may signal completion. */
  frame: HTMLIFrameElement;
  /** Origins the completion page may be served from: the endpoint's and the action's `callbackOrigin`. */
  origins: readonly (string | undefined)[];
  reference: string;
  /** Reads the authoritative state (`GET {endpoint}/payments/:reference`, with the secret). */
  read: () => Promise<PaymentState>;
  /** Milliseconds between status reads while the challenge is open. */
  pollInterval: number;
  signal: AbortSignal;
  /** The page's timers unless a test hands its own. */
  clock?: Clock | undefined;
}

/** A failure of the status read that says nothing about the payment: keep asking. */
export function isTransient(state: PaymentState): boolean {
  if (state.status !== 'failed') return false;
  return meaningOf(state.code)?.transient === true;
}

/** Only http(s) origins count (a URL stands for its origin); `null` (opaque) and junk match nothing. */
function acceptedOrigins(candidates: readonly (string | undefined)[]): Set<string> {
  const accepted = new Set<string>();
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      const url = new URL(candidate);
      if (url.protocol === 'https:' || url.protocol === 'http:') accepted.add(url.origin);
    } catch {
      // not an origin: ignore it
    }
  }
  return accepted;
}

/**
 * Learns how a challenge ended, from two sources: the completion page's message (a hint, accepted only
 * from `frame`'s window, from an accepted origin, for this reference, and followed by a status read) and
 * a status read every `pollInterval` ms. Resolves with the first final state (`pending` included), or with
 * undefined when `signal` aborts. A message while the state is still undecided (the middleware kept the
 * bank's proof to send again, or it was not a proof for this payment) ends nothing: polling goes on until
 * the gateway decides or the challenge times out. Its listener and timers are gone once it resolved.
 */
export function waitForCompletion(options: CompletionOptions): Promise<Completion | undefined> {
  const { frame, reference, read, signal } = options;
  const origins = acceptedOrigins(options.origins);
  const done = new AbortController();
  const stop = (): void => done.abort();
  if (signal.aborted) return Promise.resolve(undefined);
  signal.addEventListener('abort', stop, { once: true, signal: done.signal });

  return new Promise((resolve) => {
    done.signal.addEventListener('abort', () => resolve(undefined), { once: true });
    const end = (completion: Completion): void => {
      if (done.signal.aborted) return;
      resolve(completion);
      done.abort();
    };

    const check = async (): Promise<void> => {
      let state: PaymentState;
      try {
        state = await read();
      } catch {
        return;
      }
      if (state.status === 'authenticating' || isTransient(state)) return;
      end({ state });
    };

    void (async () => {
      while (!done.signal.aborted) {
        await sleep(options.pollInterval, done.signal, options.clock);
        if (done.signal.aborted) return;
        await check();
      }
    })();

    let heard = false;
    const onMessage = (event: MessageEvent): void => {
      if (event.source === null || event.source !== frame.contentWindow) return;
      if (!origins.has(event.origin)) return;
      const data = event.data as Partial<CompletionMessage> | null;
      if (
        !data ||
        data.source !== 'pg-checkout' ||
        data.type !== '3ds-complete' ||
        data.reference !== reference ||
        heard
      )
        return;
      heard = true;
      void check();
    };
    window.addEventListener('message', onMessage, { signal: done.signal });
  });
}
