import type { ThreeDSV1Action } from '../api/types.js';
import { ThreeDSElement } from './three-ds-element.js';

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
export class Pg3dsV1 extends ThreeDSElement<ThreeDSV1Action> {
  /** @internal */
  static override readonly version = 1;
}
