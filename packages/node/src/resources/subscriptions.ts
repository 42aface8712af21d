import {
  CancelSubscriptionRequestSchema,
  EditSubscriptionRequestSchema,
  SubscriptionResponseSchema,
  type CreditCard,
  type SubscriptionResponse,
} from '@pg-checkout/protocol';
import { expectSuccess, validRequest } from '../internal/answers.js';
import type { CallOptions, Transport } from '../internal/transport.js';
import { serializeBody } from '../signing.js';

/** Subscriptions created through payments.create with a `subscription` object. */
export class Subscriptions {
  constructor(private readonly transport: Transport) {}

  /** POST /pg/api/v2/subscription/edit: links a new card (for example after expiry). */
  async edit(
    subscriptionReference: string,
    creditCard: CreditCard,
    call?: CallOptions,
  ): Promise<SubscriptionResponse> {
    const body = validRequest(
      EditSubscriptionRequestSchema,
      { subscriptionReference, creditCard },
      'subscriptions.edit',
    );
    const answer = await this.transport.post(
      '/pg/api/v2/subscription/edit',
      serializeBody(body),
      call,
    );
    return expectSuccess(answer, SubscriptionResponseSchema, 'subscriptions.edit', 'card');
  }

  /** POST /pg/api/v2/subscription/cancel. */
  async cancel(subscriptionReference: string, call?: CallOptions): Promise<SubscriptionResponse> {
    const body = validRequest(
      CancelSubscriptionRequestSchema,
      { subscriptionReference },
      'subscriptions.cancel',
    );
    const answer = await this.transport.post(
      '/pg/api/v2/subscription/cancel',
      serializeBody(body),
      call,
    );
    return expectSuccess(answer, SubscriptionResponseSchema, 'subscriptions.cancel');
  }
}
