import { LitElement, type PropertyDeclarations } from 'lit';
import type { FinalPaymentState, ThreeDSAction } from '../api/types.js';
import type { Messages } from '../i18n/localize.js';
import { lookControllers } from '../shared/look.js';
import { themeStyles } from '../shared/theme.js';
import { ThreeDSFlowController } from './three-ds-flow.js';
import { renderThreeDS } from './three-ds-view.js';
import { threeDSStyles } from './three-ds.styles.js';

/**
 * What `<pg-3ds-v2>` and `<pg-3ds-v1>` share, declared once: their properties, their flow (a
 * ThreeDSFlowController) and look, `start`, `cancel` and the view. Each version adds only its own
 * (3-D Secure 2: the method step's `method-timeout`).
 */
export class ThreeDSElement<Action extends ThreeDSAction> extends LitElement {
  static override styles = [themeStyles, threeDSStyles];
  static override properties: PropertyDeclarations = {
    endpoint: {},
    challengeTimeout: { type: Number, attribute: 'challenge-timeout' },
    pollInterval: { type: Number, attribute: 'poll-interval' },
    locale: { reflect: true },
    messages: { attribute: false },
    appearance: { reflect: true },
  };

  /** @internal The 3-D Secure version the element runs. */
  static readonly version: 1 | 2 = 2;

  private readonly flow = new ThreeDSFlowController(this, {
    version: (this.constructor as typeof ThreeDSElement).version,
    // 3-D Secure 2's method step only: 3-D Secure 1 has none.
    methodTimeout: () => (this as { methodTimeout?: number }).methodTimeout ?? 0,
  });

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
   * `clientSecret` is the create answer's: without it (and outside a `<pg-checkout>` that holds it) the
   * middleware does not let this browser confirm or read the payment.
   */
  start(reference: string, action: Action, clientSecret?: string): Promise<FinalPaymentState> {
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
