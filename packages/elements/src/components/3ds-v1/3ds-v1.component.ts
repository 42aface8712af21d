import type { FinalPaymentState, ThreeDSAction, ThreeDSV1Action } from '../../api/types.js';
import { ThreeDSElement, type ChallengeRequest } from '../../internal/three-ds-element.js';
import { themeStyles } from '../../styles/theme.js';
import { threeDSV1Styles } from './3ds-v1.styles.js';

/** The bank's page to post, from a v1 action (a status read's too, when one is posted again). */
function challengeRequest(action: ThreeDSAction): ChallengeRequest | undefined {
  if (action.version !== 1) return undefined;
  return {
    acsUrl: action.acsUrl,
    fields: { PaReq: action.paReq, MD: action.md, TermUrl: action.termUrl },
    callbackOrigin: action.callbackOrigin,
  };
}

/**
 * @tag pg-3ds-v1
 * @summary Runs 3-D Secure 1: posts PaReq, MD and TermUrl to the bank's page in a frame and waits for it.
 *
 * Call `start(reference, threeDS, clientSecret)` with the `authenticating` answer (version 1) of
 * `POST {endpoint}/payments`. The bank posts PaRes to the middleware's TermUrl, whose page tells this element
 * it is done; the result is read from `GET {endpoint}/payments/:reference`, which is also polled every
 * `poll-interval` ms while the bank's page is open.
 *
 * @event pg-threeds-start - The challenge began (detail: reference, version, step).
 * @event pg-threeds-checking - The shopper closed the bank check; its outcome is being confirmed (detail: reference).
 * @event pg-threeds-complete - The flow ended (detail: reference, status, code).
 *
 * @csspart status - The status line.
 * @csspart challenge - The challenge wrapper.
 * @csspart frame - The bank's frame.
 * @csspart cancel - The button that cancels the bank check (Escape does the same).
 * @csspart more-time - "More time", shown with the warning before the challenge times out.
 *
 * @cssproperty --pg-challenge-full-height - Height of the full-width challenge window (default: the screen less 1rem).
 * @cssproperty --pg-color-border - Frame border colour.
 * @cssproperty --pg-color-primary - Cancel button colour.
 */
export class Pg3dsV1 extends ThreeDSElement {
  static override styles = [themeStyles, threeDSV1Styles];

  /**
   * Runs the flow for one payment and resolves with its final state; never rejects for payment outcomes.
   * `clientSecret` is the create answer's (see `<pg-3ds-v2>`).
   */
  start(
    reference: string,
    action: ThreeDSV1Action,
    clientSecret?: string,
  ): Promise<FinalPaymentState> {
    this.prepare(reference, clientSecret);
    return this.runFlow(reference, (signal) =>
      this.challenge(reference, 1, challengeRequest(action)!, challengeRequest, signal),
    );
  }
}
