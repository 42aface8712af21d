import { z } from 'zod';
import { creditCard } from './cards.js';
import { envelopeShape } from './envelope.js';
import { nonEmpty, obj, type Mode } from './internal/fields.js';

function editSubscription(mode: Mode) {
  return obj(mode, {
    subscriptionReference: nonEmpty('subscriptionReference'),
    creditCard: creditCard(mode),
  });
}
export const EditSubscriptionRequestSchema = editSubscription('strict');
export const EditSubscriptionRequestLenientSchema = editSubscription('lenient');
export type EditSubscriptionRequest = z.input<typeof EditSubscriptionRequestSchema>;

function cancelSubscription(mode: Mode) {
  return obj(mode, { subscriptionReference: nonEmpty('subscriptionReference') });
}
export const CancelSubscriptionRequestSchema = cancelSubscription('strict');
export const CancelSubscriptionRequestLenientSchema = cancelSubscription('lenient');
export type CancelSubscriptionRequest = z.input<typeof CancelSubscriptionRequestSchema>;

/** Both answer `{success, message}`. */
export const SubscriptionResponseSchema = z.looseObject(envelopeShape);
export type SubscriptionResponse = z.infer<typeof SubscriptionResponseSchema>;
