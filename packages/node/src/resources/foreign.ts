import {
  AddForeignTransferRequestSchema,
  CreateForeignPaymentRequestSchema,
  CreateForeignPaymentResponseSchema,
  EditForeignPaymentRequestSchema,
  ForeignChangeResponseSchema,
  type CreateForeignPaymentRequest,
  type EditForeignPaymentRequest,
  type ForeignChangeResponse,
  type PreparedTransfer,
} from '@pg-checkout/protocol';
import type { ExecuteOutcome, RedirectOutcome, RefundOutcome } from '../outcomes.js';
import { serializeBody } from '../signing.js';
import { expectSuccess, pathParam, validRequest } from '../internal/answers.js';
import { execute, refund, type ExecuteAmount, type RefundAmount } from '../internal/money.js';
import type { CallOptions, Transport } from '../internal/transport.js';
import { redirectOutcome } from '../internal/redirect-outcome.js';

/** Card payments in other currencies (v3): hosted page, execute, refund, edits and transfers. */
export class Foreign {
  constructor(private readonly transport: Transport) {}

  /** POST /pg/api/v3/payment/create: send the consumer to `redirectUrl`; the notify webhook reports the result. */
  async create(request: CreateForeignPaymentRequest, call?: CallOptions): Promise<RedirectOutcome> {
    const body = validRequest(CreateForeignPaymentRequestSchema, request, 'foreign.create');
    const answer = await this.transport.post(
      '/pg/api/v3/payment/create',
      serializeBody(body),
      call,
    );
    return redirectOutcome(
      answer,
      expectSuccess(answer, CreateForeignPaymentResponseSchema, 'foreign.create'),
      'foreign.create',
    );
  }

  /** GET or POST /pg/api/v3/payment/{reference}/execute. */
  execute(
    reference: string,
    transaction?: ExecuteAmount,
    call?: CallOptions,
  ): Promise<ExecuteOutcome> {
    return execute(this.transport, 'v3', reference, transaction, call);
  }

  /** GET or POST /pg/api/v3/payment/{reference}/refund. */
  refund(
    reference: string,
    transaction?: RefundAmount,
    call?: CallOptions,
  ): Promise<RefundOutcome> {
    return refund(this.transport, 'v3', reference, transaction, call);
  }

  /** POST /pg/api/v3/payment/{reference}/edit; refused (code 1) on or after the transaction date. */
  async edit(
    reference: string,
    request: EditForeignPaymentRequest,
    call?: CallOptions,
  ): Promise<ForeignChangeResponse> {
    const path = `/pg/api/v3/payment/${pathParam(reference, 'reference')}/edit`;
    const body = validRequest(EditForeignPaymentRequestSchema, request, 'foreign.edit');
    const answer = await this.transport.post(path, serializeBody(body), call);
    return expectSuccess(answer, ForeignChangeResponseSchema, 'foreign.edit', 'general', reference);
  }

  /** POST /pg/api/v3/payment/{reference}/transfer/create: adds to the existing transfers. */
  async addTransfer(
    reference: string,
    transfer: PreparedTransfer,
    call?: CallOptions,
  ): Promise<ForeignChangeResponse> {
    const path = `/pg/api/v3/payment/${pathParam(reference, 'reference')}/transfer/create`;
    const body = validRequest(AddForeignTransferRequestSchema, { transfer }, 'foreign.addTransfer');
    const answer = await this.transport.post(path, serializeBody(body), call);
    return expectSuccess(
      answer,
      ForeignChangeResponseSchema,
      'foreign.addTransfer',
      'general',
      reference,
    );
  }

  /** GET /pg/api/v3/payment/{reference}/transfer/cancel: cancels all linked transfers; not retried. */
  async cancelTransfer(reference: string, call?: CallOptions): Promise<ForeignChangeResponse> {
    const path = `/pg/api/v3/payment/${pathParam(reference, 'reference')}/transfer/cancel`;
    const answer = await this.transport.get(path, call, false);
    return expectSuccess(
      answer,
      ForeignChangeResponseSchema,
      'foreign.cancelTransfer',
      'general',
      reference,
    );
  }
}
