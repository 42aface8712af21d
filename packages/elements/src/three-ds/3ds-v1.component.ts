import { LitElement, type PropertyDeclarations } from 'lit';
import type { FinalPaymentState, ThreeDSV1Action } from '../api/types.js';
import { ThreeDSFlowController } from './three-ds-flow.js';
import { renderThreeDS } from './three-ds-view.js';
import type { Messages } from '../i18n/localize.js';
import { lookControllers } from '../shared/look.js';
import { themeStyles } from '../shared/theme.js';
import { threeDSStyles } from './three-ds.styles.js';

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
export class Pg3dsV1 extends LitElement {
  static override styles = [themeStyles, threeDSStyles];
  static override properties: PropertyDeclarations = {
    endpoint: {},
    challengeTimeout: { type: Number, attribute: 'challenge-timeout' },
    pollInterval: { type: Number, attribute: 'poll-interval' },
    locale: { reflect: true },
    messages: { attribute: false },
    appearance: { reflect: true },
  };

  private readonly flow = new ThreeDSFlowController(this, { version: 1 });

  /** Its look: the server's styles once it hydrates; `appearance="auto"` follows the page's own colours. */
  private readonly look = lookControllers(this);

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
   * `clientSecret` is the create answer's (see `<pg-3ds-v2>`).
   */
  start(
    reference: string,
    action: ThreeDSV1Action,
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
