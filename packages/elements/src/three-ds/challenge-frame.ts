import type { FinalPaymentState } from '../api/types.js';
import { createPg3dsStartEvent } from './events/3ds-start.js';
import { challengeDeadline } from './challenge-deadline.js';
import { waitForCompletion } from './completion.js';
import { postIntoFrame } from './post-into-frame.js';
import type { Clock } from '../shared/sleep.js';
import { pickChallengeWindow, type ChallengeWindow } from './window-size.js';
import type { ChallengeRequest, ThreeDSApi, ThreeDSHost } from './ports.js';

let frameCounter = 0;

/** How a challenge in the frame ended: the gateway's decision, out of time, or the element left the page. */
export type ChallengeEnd = { state: FinalPaymentState } | 'timeout' | 'detached' | undefined;

/**
 * The bank's challenge in the element's frame: sized from the EMV window sizes, posted into, watched for
 * the completion page's message and polled, with a time limit that warns ahead and can be extended.
 */
export class ChallengeFrame {
  private readonly host: ThreeDSHost;
  private readonly clock: Clock;
  window: ChallengeWindow = { code: '02', width: 390, height: 400 };
  name = '';
  /** The bank's page has arrived in the frame (until then a spinner says it is loading). */
  bankLoaded = false;
  /** Seconds left when the shopper was warned that the challenge is about to time out (0: no warning). */
  timeoutWarning = 0;
  private moreTimeRequested?: (() => void) | undefined;

  constructor(host: ThreeDSHost, clock: Clock) {
    this.host = host;
    this.clock = clock;
  }

  /**
   * Shows a fresh frame, posts the request's fields to `acsUrl` into it and waits for the outcome: the
   * completion page's message (from `callbackOrigin` or the endpoint's origin) or a status read, whichever
   * is first; `timeout` when the time ran out, `detached` when the element left the document (`attached`
   * aborted) first, undefined when `signal` ended it. Nothing of it (listener, poll, timer) outlives it.
   */
  async open(
    reference: string,
    version: 1 | 2,
    request: ChallengeRequest,
    api: ThreeDSApi,
    signal: AbortSignal,
    attached: AbortSignal,
  ): Promise<ChallengeEnd> {
    const { host } = this;
    frameCounter += 1;
    this.window = pickChallengeWindow(
      host.getBoundingClientRect().width || host.parentElement?.clientWidth || 390,
      window.innerHeight,
    );
    this.name = `pg-3ds-${version}-${Date.now().toString(36)}-${frameCounter}`;
    this.bankLoaded = false;
    host.requestUpdate();
    await host.updateComplete;
    if (signal.aborted) return undefined;
    if (attached.aborted) return 'detached';
    this.reveal();
    const frame = host.renderRoot.querySelector<HTMLIFrameElement>('iframe[part=frame]');
    // Each attempt gets a fresh frame (no history, no old bank page); a form aimed at a missing name opens a window.
    if (!frame || frame.name !== this.name) return undefined;
    // Ends with this challenge or this attachment, whichever way: nothing outlives it into a later one.
    const watch = new AbortController();
    const stop = (): void => watch.abort();
    signal.addEventListener('abort', stop, { once: true, signal: watch.signal });
    attached.addEventListener('abort', stop, { once: true, signal: watch.signal });
    try {
      const completed = waitForCompletion({
        frame,
        origins: [api.origin, request.callbackOrigin],
        reference,
        read: () => api.payment(reference),
        pollInterval: host.pollInterval,
        signal: watch.signal,
        clock: this.clock,
      });
      host.dispatchEvent(createPg3dsStartEvent({ reference, version, step: 'challenge' }));
      // Focus goes in once the bank's page is there: focused any earlier, that page never gets it.
      frame.addEventListener(
        'load',
        () => {
          // The empty document a new frame starts with is not the bank's page.
          if (frame.contentDocument?.URL === 'about:blank') return;
          this.bankLoaded = true;
          host.requestUpdate();
          this.focus(frame);
          this.reveal();
        },
        { signal: watch.signal },
      );
      postIntoFrame(host.renderRoot as ShadowRoot, request.acsUrl, this.name, request.fields);
      this.warn(0);
      const deadline = challengeDeadline(
        host.challengeTimeout,
        watch.signal,
        (left) => this.warn(left),
        this.clock,
      );
      this.moreTimeRequested = () => {
        this.warn(0);
        deadline.extend();
        this.focus(frame);
      };
      const timedOut = deadline.ended.then(() => 'timeout' as const);
      const outcome = await Promise.race([completed, timedOut]);
      if (signal.aborted) return undefined;
      return attached.aborted ? 'detached' : outcome;
    } finally {
      watch.abort();
      this.moreTimeRequested = undefined;
      this.warn(0);
    }
  }

  /** "More time": the whole challenge time again, and focus back into the bank's page. */
  moreTime(): void {
    this.moreTimeRequested?.();
  }

  private warn(secondsLeft: number): void {
    this.timeoutWarning = secondsLeft;
    this.host.requestUpdate();
  }

  private focus(frame: HTMLIFrameElement): void {
    const root = this.host.renderRoot as ShadowRoot;
    // Already focused from an earlier load: step out first, or the new page would not get focus.
    if (root.activeElement === frame)
      root.querySelector<HTMLElement>('[part=challenge]')?.focus({ preventScroll: true });
    // Focus scrolls in its own way per engine (Firefox puts the frame's top at the screen's, hiding the close control).
    frame.focus({ preventScroll: true });
  }

  /**
   * Scrolls the challenge (close control, then the bank's page) to the top of the screen unless all of it is
   * on screen: on a phone or zoomed in it opens below the form, where only the bank's title would show.
   */
  private reveal(): void {
    const box = this.host.renderRoot.querySelector<HTMLElement>('[part=challenge]');
    const rect = box?.getBoundingClientRect();
    if (rect && (rect.top < 0 || rect.bottom > innerHeight))
      box!.scrollIntoView({ block: 'start' });
  }
}
