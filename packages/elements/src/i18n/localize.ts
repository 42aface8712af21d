import { af } from './af.js';
import { en } from './en.js';
import type { MessageKey, MessageParams, Messages } from './messages.js';

export type { MessageKey, MessageParams, Messages } from './messages.js';

const tables: Record<string, Messages> = { en, af };

/** The shipped locales; anything else falls back to English. */
export const supportedLocales = Object.keys(tables);

/** Picks the table for a BCP 47 tag (`af-ZA` -> `af`), English when there is none. */
export function messagesFor(locale: string | undefined): Messages {
  const language = (locale ?? 'en').toLowerCase().split(/[-_]/)[0] ?? 'en';
  return tables[language] ?? en;
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
