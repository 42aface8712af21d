import type { PropertyDeclarations } from 'lit';
import type { ThreeDSV2Action } from '../api/types.js';
import { ThreeDSElement } from './three-ds-element.js';

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
export class Pg3dsV2 extends ThreeDSElement<ThreeDSV2Action> {
  // Lit adds these to the properties ThreeDSElement declares.
  static override properties: PropertyDeclarations = {
    methodTimeout: { type: Number, attribute: 'method-timeout' },
  };

  /** Milliseconds between the method frame's load and Step 2 confirm (the gateway asks for 3 s). */
  methodTimeout = 3000;
}
