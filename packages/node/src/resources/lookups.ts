import {
  ListPaymentsRequestSchema,
  ListPaymentsResponseSchema,
  RedirectLookupRecordSchema,
  TransactionLookupRecordSchema,
  type ListPaymentsRequest,
  type RedirectLookupRecord,
  type TransactionDetails,
  type TransactionLookupRecord,
} from '@pg-checkout/protocol';
import { expectSuccess, pathParam, validRequest } from '../internal/answers.js';
import type { CallOptions, Transport } from '../internal/transport.js';
import { serializeBody } from '../signing.js';

/** The lookup path of a merchant reference (also read by `GatewayClient.reconcile`). */
export const merchantReferencePath = (merchantReference: string): string =>
  `/pg/api/v2/payment/lookup/merchantReference/${pathParam(merchantReference, 'merchantReference')}`;

/** Transaction lookups and the list; reads, so GETs retry connection errors and 5xx. */
export class Lookups {
  constructor(private readonly transport: Transport) {}

  /** GET /pg/api/v2/payment/{reference}. */
  async payment(reference: string, call?: CallOptions): Promise<TransactionLookupRecord> {
    const answer = await this.transport.get(
      `/pg/api/v2/payment/${pathParam(reference, 'reference')}`,
      call,
      true,
    );
    return expectSuccess(
      answer,
      TransactionLookupRecordSchema,
      'lookups.payment',
      'general',
      reference,
    );
  }

  /** GET /pg/api/v2/payment/lookup/merchantReference/{merchantReference} (refunds have negative amounts). */
  async byMerchantReference(
    merchantReference: string,
    call?: CallOptions,
  ): Promise<TransactionLookupRecord> {
    const answer = await this.transport.get(merchantReferencePath(merchantReference), call, true);
    return expectSuccess(answer, TransactionLookupRecordSchema, 'lookups.byMerchantReference');
  }

  /** POST /pg/api/v2/payment/list; every filter optional, all given filters apply together. A read: safe to repeat. */
  async list(filters: ListPaymentsRequest = {}, call?: CallOptions): Promise<TransactionDetails[]> {
    const body = validRequest(ListPaymentsRequestSchema, filters, 'lookups.list');
    const answer = await this.transport.post(
      '/pg/api/v2/payment/list',
      serializeBody(body),
      call,
      false,
    );
    return expectSuccess(answer, ListPaymentsResponseSchema, 'lookups.list').transactions ?? [];
  }

  /** GET /pg/api/v2/redirect/{reference}: a hosted-page payment's record. */
  async redirect(reference: string, call?: CallOptions): Promise<RedirectLookupRecord> {
    const answer = await this.transport.get(
      `/pg/api/v2/redirect/${pathParam(reference, 'reference')}`,
      call,
      true,
    );
    return expectSuccess(
      answer,
      RedirectLookupRecordSchema,
      'lookups.redirect',
      'general',
      reference,
    );
  }
}
