import {
  CancelTransferRequestSchema,
  CancelTransferResponseSchema,
  CreateTransferRequestSchema,
  CreateTransferResponseSchema,
  ListMerchantsResponseSchema,
  ListTransfersResponseSchema,
  type CancelTransferResponse,
  type CreateTransferRequest,
  type CreateTransferResponse,
  type Merchant,
  type TransactionDetails,
} from '@pg-checkout/protocol';
import { expectSuccess, validRequest } from '../internal/answers.js';
import type { CallOptions, Transport } from '../internal/transport.js';
import { serializeBody } from '../signing.js';

/** ZAR transfers between affiliated merchants (v2). */
export class Transfers {
  constructor(private readonly transport: Transport) {}

  /** POST /pg/api/v2/transfer/create. */
  async create(
    request: CreateTransferRequest,
    call?: CallOptions,
  ): Promise<CreateTransferResponse> {
    const body = validRequest(CreateTransferRequestSchema, request, 'transfers.create');
    const answer = await this.transport.post(
      '/pg/api/v2/transfer/create',
      serializeBody(body),
      call,
    );
    return expectSuccess(answer, CreateTransferResponseSchema, 'transfers.create');
  }

  /** POST /pg/api/v2/transfer/cancel with the transfer reference; only before the transfer date. */
  async cancel(reference: string, call?: CallOptions): Promise<CancelTransferResponse> {
    const body = validRequest(CancelTransferRequestSchema, { reference }, 'transfers.cancel');
    const answer = await this.transport.post(
      '/pg/api/v2/transfer/cancel',
      serializeBody(body),
      call,
    );
    return expectSuccess(
      answer,
      CancelTransferResponseSchema,
      'transfers.cancel',
      'general',
      reference,
    );
  }

  /** GET /pg/api/v2/transfer/merchants/get: the affiliated merchants. */
  async merchants(call?: CallOptions): Promise<Merchant[]> {
    const answer = await this.transport.get('/pg/api/v2/transfer/merchants/get', call, true);
    return (
      expectSuccess(answer, ListMerchantsResponseSchema, 'transfers.merchants').merchants ?? []
    );
  }

  /** GET /pg/api/v2/transfer/list/get: outstanding transfers for the next 90 days (suspended = pending). */
  async list(call?: CallOptions): Promise<TransactionDetails[]> {
    const answer = await this.transport.get('/pg/api/v2/transfer/list/get', call, true);
    return expectSuccess(answer, ListTransfersResponseSchema, 'transfers.list').transactions ?? [];
  }
}
