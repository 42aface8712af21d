import type { z } from 'zod';
import { nonEmpty, obj, opt, reference, text, url, integer, type Mode } from './internal/fields.js';

const email = (field: string) =>
  text(field).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, `${field} must be an e-mail address`);

export function consumerAddress(mode: Mode) {
  return obj(mode, {
    addressLineOne: nonEmpty('addressLineOne'),
    city: nonEmpty('city'),
    postCode: nonEmpty('postCode'),
    country: text('country').regex(/^[A-Z]{2}$/, 'country must be a two-letter upper-case code'),
  });
}

export function consumer(mode: Mode) {
  return obj(mode, {
    name: opt(mode, text('name')),
    surname: opt(mode, text('surname')),
    email: opt(mode, email('email')),
    mobile: opt(
      mode,
      text('mobile').regex(
        /^\+?\d{6,15}$/,
        'mobile must be a full international number with dial code',
      ),
    ),
    consumerAddress: opt(mode, consumerAddress(mode)),
  });
}

export const ConsumerAddressSchema = consumerAddress('strict');
export const ConsumerAddressLenientSchema = consumerAddress('lenient');
export type ConsumerAddress = z.infer<typeof ConsumerAddressSchema>;
export const ConsumerSchema = consumer('strict');
export const ConsumerLenientSchema = consumer('lenient');
export type Consumer = z.infer<typeof ConsumerSchema>;

/** Redirect targets; notify is the payment webhook address. */
export function urls(mode: Mode, notify: 'optional' | 'absent' = 'optional') {
  const base = {
    success: url('urls.success'),
    cancel: url('urls.cancel'),
    error: url('urls.error'),
  };
  return notify === 'optional'
    ? obj(mode, { ...base, notify: opt(mode, url('urls.notify')) })
    : obj(mode, base);
}

export const UrlsSchema = urls('strict');
export const UrlsLenientSchema = urls('lenient');
export type Urls = z.infer<typeof UrlsSchema>;

export function subscription(mode: Mode) {
  return obj(mode, {
    reference: reference('subscription.reference'),
    // Only MONTHLY is named as a value; the text mentions yearly and daily, so other words pass.
    interval: opt(
      mode,
      text('interval').regex(/^[A-Z_]+$/, 'interval must be an upper-case word such as MONTHLY'),
    ),
    trialDays: opt(mode, integer('trialDays').min(0, 'trialDays must not be negative')),
    firstname: nonEmpty('firstname'),
    lastname: nonEmpty('lastname'),
    email: email('email'),
  });
}

export const SubscriptionSchema = subscription('strict');
export const SubscriptionLenientSchema = subscription('lenient');
export type Subscription = z.infer<typeof SubscriptionSchema>;
