import type { ReactiveController, ReactiveControllerHost } from 'lit';
import tables, { en, type TableLoader } from './locales.js';
import type { MessageKey, MessageParams, Messages } from './messages.js';

export type { MessageKey, MessageParams, Messages } from './messages.js';
export type { TableLoader };

/** What to run (an element rendering again) when a table that was loading arrives. */
const waiting = new Set<() => void>();

/** The shipped locales; anything else falls back to English. */
export const supportedLocales = Object.keys(tables);

/** Puts `table` (or its loader) in place for `language`: how a test stands in for a table file still loading. */
export function setTable(language: string, table: Messages | TableLoader): void {
  tables[language] = table;
}

/** Picks the table for a BCP 47 tag (`af-ZA` -> `af`), English when there is none or while it loads. */
export function messagesFor(locale: string | undefined): Messages {
  const language = (locale ?? 'en').toLowerCase().split(/[-_]/)[0]!;
  const table = tables[language] ?? en;
  if (typeof table !== 'function') return table;
  // English meanwhile (and for good if the file cannot be loaded), then every element renders again.
  tables[language] = en;
  table().then(
    (loaded) => {
      tables[language] = loaded;
      for (const loaded of [...waiting]) loaded();
    },
    () => {},
  );
  return en;
}

/**
 * A controller that runs `loaded` (by default: renders `host` again) while `host` is connected, when a
 * table it showed English for meanwhile has arrived.
 */
export function updateOnTableLoad(
  host: ReactiveControllerHost,
  loaded: () => void = () => host.requestUpdate(),
): ReactiveController {
  const controller = {
    hostConnected: () => waiting.add(loaded),
    hostDisconnected: () => waiting.delete(loaded),
  };
  host.addController(controller);
  return controller;
}

export type Translate = (key: MessageKey, params?: MessageParams) => string;

/** A translator for one locale with the merchant's per-string overrides on top. */
export function createTranslator(
  locale: string | undefined,
  overrides: Partial<Messages> = {},
): Translate {
  const table = messagesFor(locale);
  return (key, params) => {
    const override = overrides[key];
    const template = typeof override === 'string' ? override : table[key];
    return params ? format(template, params) : template;
  };
}

/** Fills `{name}` placeholders; unknown placeholders stay visible so a bad override is noticed. */
export function format(template: string, params: MessageParams): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}
