import type { MessageKey, MessageParams, Translate } from '../../i18n/localize.js';

/** Why a value is not acceptable, as a message key the translation table resolves. */
export interface ValidationFailure {
  validator: string;
  key: MessageKey;
  params?: MessageParams;
}

/** A small named check with a localized message (after Lion's validators). */
export interface Validator<T> {
  readonly name: string;
  /** Undefined when `value` passes. */
  execute(value: T): ValidationFailure | undefined;
}

export const fail = (
  validator: string,
  key: MessageKey,
  params?: MessageParams,
): ValidationFailure => (params ? { validator, key, params } : { validator, key });

/** The shopper-facing text of a failure. */
export const messageOf = (failure: ValidationFailure, t: Translate): string =>
  t(failure.key, failure.params);

/** Runs validators in order and returns the first failure. */
export function firstFailure<T>(
  value: T,
  validators: readonly Validator<T>[],
): ValidationFailure | undefined {
  for (const validator of validators) {
    const result = validator.execute(value);
    if (result) return result;
  }
  return undefined;
}
