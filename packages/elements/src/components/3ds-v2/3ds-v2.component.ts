import type { PropertyDeclarations } from 'lit';
import type { FinalPaymentState, ThreeDSAction, ThreeDSV2Action } from '../../api/types.js';
import { createPg3dsStartEvent } from '../../events/3ds-start.js';
import { methodPosted } from '../../internal/method-posted.js';
import { sleep } from '../../internal/sleep.js';
import { ThreeDSElement, type ChallengeRequest } from '../../internal/three-ds-element.js';
import { themeStyles } from '../../styles/theme.js';
import { threeDSV2Styles } from './3ds-v2.styles.js';

/** Longest wait for the method form to reach the bank once the frame loaded. */
const METHOD_POST_LIMIT_MS = 2_000;

/** Longest wait for the method frame's load event before carrying on without it. */
const METHOD_LOAD_LIMIT_MS = 10_000;

/** The challenge to post, from a v2 challenge action (a status read's too, when one is posted again). */
function challengeRequest(action: ThreeDSAction): ChallengeRequest | undefined {
  if (action.version !== 2 || action.step !== 'challenge') return undefined;
  return {
    acsUrl: action.acsUrl,
    fields: { creq: action.creq, threeDSSessionData: action.threeDSSessionData },
    callbackOrigin: action.callbackOrigin,
  };
}

/**
 * @tag pg-3ds-v2
 * @summary Runs 3-D Secure 2: the hidden method step, then the bank's challenge when it asks for one.
 *
 * Call `start(reference, threeDS, clientSecret)` with the `authenticating` answer of
 * `POST {endpoint}/payments`. The method content runs as its own document in a hidden frame (from the
 * middleware's `methodUrl`, so it obeys the shop's CSP), Step 2 confirm follows `method-timeout` ms after it
 * loaded, and a challenge opens a frame sized from the EMV window sizes. The outcome is read from
 * `GET {endpoint}/payments/:reference` every `poll-interval` ms while the challenge is open, and at once when
 * the completion page says so (accepted only from this element's frame, from the endpoint's origin or the
 * action's `callbackOrigin`, for this payment).
 *
 * @event pg-threeds-start - The method step or the challenge began (detail: reference, version, step).
 * @event pg-threeds-checking - The shopper closed the bank check; its outcome is being confirmed (detail: reference).
 * @event pg-threeds-complete - The flow ended (detail: reference, status, code).
 *
 * @csspart status - The "checking with your bank" line during the method step.
 * @csspart method-frame - The hidden method frame.
 * @csspart challenge - The challenge wrapper.
 * @csspart frame - The challenge frame.
 * @csspart cancel - The button that cancels the bank check (Escape does the same).
 * @csspart more-time - "More time", shown with the warning before the challenge times out.
 *
 * @cssproperty --pg-challenge-full-height - Height of the full-width (05) challenge window (default: the screen less 1rem).
 * @cssproperty --pg-color-border - Frame border colour.
 * @cssproperty --pg-color-primary - Cancel button colour.
 */
export class Pg3dsV2 extends ThreeDSElement {
  static override styles = [themeStyles, threeDSV2Styles];
  static override properties: PropertyDeclarations = {
    methodTimeout: { type: Number, attribute: 'method-timeout' },
  };

  /** Milliseconds between the method frame's load and Step 2 confirm (the gateway asks for 3 s). */
  methodTimeout = 3000;

  private methodLoaded?: (() => void) | undefined;

  /**
   * Runs the flow for one payment and resolves with its final state; never rejects for payment outcomes.
   * `clientSecret` is the create answer's: without it (and outside a `<pg-checkout>` that holds it) the
   * middleware does not let this browser confirm or read the payment.
   */
  start(
    reference: string,
    action: ThreeDSV2Action,
    clientSecret?: string,
  ): Promise<FinalPaymentState> {
    this.prepare(reference, clientSecret);
    return this.runFlow(reference, async (signal) => {
      let next = action;
      if (next.step === 'method') {
        const answer = await this.methodStep(reference, next, signal);
        if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
        if (answer.status !== 'authenticating') return answer;
        if (answer.threeDS.version !== 2 || answer.threeDS.step !== 'challenge') {
          return this.failure(reference, 'authentication_failed', 'authenticationFailed');
        }
        next = answer.threeDS;
      }
      return this.challenge(reference, 2, challengeRequest(next)!, challengeRequest, signal);
    });
  }

  private async methodStep(
    reference: string,
    action: Extract<ThreeDSV2Action, { step: 'method' }>,
    signal: AbortSignal,
  ) {
    const loaded = new Promise<void>((resolve) => (this.methodLoaded = resolve));
    this.methodSource = action.methodUrl
      ? { src: action.methodUrl }
      : { srcdoc: action.tdsMethodContent };
    this.phase = 'method';
    this.dispatchEvent(createPg3dsStartEvent({ reference, version: 2, step: 'method' }));
    // A frame that never loads (blocked, offline) must not hold the payment: go on without it.
    await Promise.race([loaded, sleep(Math.max(METHOD_LOAD_LIMIT_MS, this.methodTimeout), signal)]);
    this.methodLoaded = undefined;
    const frame = this.renderRoot.querySelector<HTMLIFrameElement>('iframe[part=method-frame]');
    if (frame) await methodPosted(frame, METHOD_POST_LIMIT_MS, signal);
    // The wait is the gateway's: a method step that is slow or silent means "continue", not an error.
    await sleep(this.methodTimeout, signal);
    if (signal.aborted) return this.failure(reference, 'aborted', 'failed');
    const answer = await this.api.confirmMethodAt(action.confirmUrl, reference);
    this.phase = 'idle';
    this.methodSource = undefined;
    return answer.status === 'authenticating' ? answer : this.finalState(answer, reference);
  }

  protected override onMethodLoad(): void {
    this.methodLoaded?.();
  }
}
