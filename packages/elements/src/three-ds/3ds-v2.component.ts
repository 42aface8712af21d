import { LitElement, type PropertyDeclarations } from 'lit';
import type { FinalPaymentState, ThreeDSV2Action } from '../api/types.js';
import { ThreeDSFlowController } from './three-ds-flow.js';
import { renderThreeDS } from './three-ds-view.js';
import type { Messages } from '../i18n/localize.js';
import { lookControllers } from '../shared/look.js';
import { themeStyles } from '../shared/theme.js';
import { threeDSStyles } from './three-ds.styles.js';

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
export class Pg3dsV2 extends LitElement {
  static override styles = [themeStyles, threeDSStyles];
  static override properties: PropertyDeclarations = {
    methodTimeout: { type: Number, attribute: 'method-timeout' },
    endpoint: {},
    challengeTimeout: { type: Number, attribute: 'challenge-timeout' },
    pollInterval: { type: Number, attribute: 'poll-interval' },
    locale: { reflect: true },
    messages: { attribute: false },
    appearance: { reflect: true },
  };

  private readonly flow = new ThreeDSFlowController(this, {
    version: 2,
    methodTimeout: () => this.methodTimeout,
  });

  /** Its look: the server's styles once it hydrates; `appearance="auto"` follows the page's own colours. */
  private readonly look = lookControllers(this);

  /** Milliseconds between the method frame's load and Step 2 confirm (the gateway asks for 3 s). */
  methodTimeout = 3000;

  /** The middleware's mount URL; the drop-in's when inside one. */
  endpoint = '';

  /** Milliseconds a challenge may take before it ends as `authentication_timeout`. */
  challengeTimeout = 600_000;

  /** Milliseconds between status reads while a challenge is open (the completion message may never come). */
  pollInterval = 2000;

  /** Locale of the messages; the drop-in's when inside one. */
  locale = 'en';

  /** Per-string overrides of the translation table. */
  messages: Partial<Messages> = {};

  /** Light or dark defaults (`light`, `dark`, `auto`). */
  appearance: 'light' | 'dark' | 'auto' = 'light';

  /** True while a flow runs. */
  get active(): boolean {
    return this.flow.active;
  }

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
    return this.flow.start(reference, action, clientSecret);
  }

  /**
   * Closes the bank check (the shopper's Cancel does the same); the flow ends as the middleware then says:
   * `authentication_cancelled` once it made sure no payment will be made, else what the bank's answer decided.
   */
  cancel(): void {
    this.flow.cancel();
  }

  /** A state-preserving `moveBefore()` keeps the frames as they are: nothing to pause or post again. */
  connectedMoveCallback(): void {}

  override render() {
    return renderThreeDS(this.flow);
  }
}
