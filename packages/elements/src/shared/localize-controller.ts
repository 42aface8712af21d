import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { FinalPaymentState } from '../api/types.js';
import { formatAmount } from '../i18n/amount.js';
import {
  createTranslator,
  updateOnTableLoad,
  type MessageKey,
  type MessageParams,
  type Messages,
  type Translate,
} from '../i18n/localize.js';
import { shopperMessage } from './failure-message.js';

/** An element with the `locale` and `messages` properties every element of this package has. */
export interface LocalizeHost extends ReactiveControllerHost {
  locale: string;
  messages: Partial<Messages>;
}

export interface LocalizeOptions {
  /** A translator that speaks for the host when it returns one (a part inside `<pg-checkout>` speaks as the drop-in). */
  inherit?: () => Translate | undefined;
}

/**
 * Every string an element shows, in its `locale` with its `messages` on top: the translator is made again
 * only when one of them changed, and the host renders again when a table that was still loading arrives.
 */
export class LocalizeController implements ReactiveController {
  private readonly host: LocalizeHost;
  private readonly inherit: (() => Translate | undefined) | undefined;
  private translator?: Translate | undefined;
  private madeFor?: [locale: string, messages: Partial<Messages>] | undefined;

  constructor(host: LocalizeHost, options: LocalizeOptions = {}) {
    this.host = host;
    this.inherit = options.inherit;
    host.addController(this);
    updateOnTableLoad(host, () => {
      this.translator = undefined;
      host.requestUpdate();
    });
  }

  /** The host's locale (a BCP 47 tag). */
  get locale(): string {
    return this.host.locale;
  }

  hostUpdate(): void {
    this.ownTranslator();
  }

  /** The host's message for `key`, its `{name}` placeholders filled from `params` (bound: it can be handed on). */
  readonly t: Translate = (key: MessageKey, params?: MessageParams): string =>
    (this.inherit?.() ?? this.ownTranslator())(key, params);

  /** The one sentence a shopper reads for how a payment ended; raw server and gateway text never shows. */
  outcome(state: FinalPaymentState): string {
    return shopperMessage(state, this.t, (cents, currency) => this.amount(cents, currency));
  }

  /**
   * `value` minor units of `currency` ("R 149,00"), or undefined for the moment Intl's format for an
   * unusual pair is being made (the host renders again once it exists).
   */
  amount(value: number, currency: string): string | undefined {
    return formatAmount(this.locale, currency, value, () => this.host.requestUpdate());
  }

  private ownTranslator(): Translate {
    const { locale, messages } = this.host;
    const made = this.madeFor;
    if (!this.translator || made?.[0] !== locale || made[1] !== messages) {
      this.translator = createTranslator(locale, messages);
      this.madeFor = [locale, messages];
    }
    return this.translator;
  }
}
