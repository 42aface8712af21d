import {
  ConfirmV1RequestSchema,
  ConfirmV2RequestSchema,
  CreatePaymentRequestSchema,
  RefundMultipleRequestSchema,
  RefundMultipleResponseSchema,
  Step2ConfirmRequestSchema,
  type CreatePaymentRequest,
  type RefundMultipleRequest,
  type RefundMultipleResponse,
} from '@pg-checkout/protocol';
import { UnexpectedResponseError } from '../errors.js';
import type {
  ApprovedOutcome,
  ExecuteOutcome,
  PaymentOutcome,
  RefundOutcome,
  Step2Outcome,
} from '../outcomes.js';
import { serializeBody } from '../signing.js';
import { expectSuccess, pathParam, validRequest } from '../internal/answers.js';
import { execute, refund, type ExecuteAmount, type RefundAmount } from '../internal/money.js';
import { approvedOutcome, paymentOutcome } from '../internal/payment-outcome.js';
import type { CallOptions, Transport } from '../internal/transport.js';

/** Card payments in ZAR (v2): create, 3D Secure confirmations, execute, refund. */
export class Payments {
  constructor(private readonly transport: Transport) {}

  /**
   * POST /pg/api/v2/payment/create. Never retried: on GatewayTimeoutError or GatewayConnectionError the
   * outcome is unknown, so call `client.reconcile(transaction.reference)` first.
   */
  async create(request: CreatePaymentRequest, call?: CallOptions): Promise<PaymentOutcome> {
    const body = validRequest(CreatePaymentRequestSchema, request, 'payments.create');
    const answer = await this.transport.post(
      '/pg/api/v2/payment/create',
      serializeBody(body),
      call,
    );
    return paymentOutcome(answer, 'payments.create');
  }

  /** POST /pg/api/v2/payment/{reference}/confirm with the bank's PaRes (3D Secure V1). */
  async confirm3dsV1(
    reference: string,
    paRes: string,
    call?: CallOptions,
  ): Promise<ApprovedOutcome> {
    const path = `/pg/api/v2/payment/${pathParam(reference, 'reference')}/confirm`;
    const body = validRequest(ConfirmV1RequestSchema, { paRes }, 'payments.confirm3dsV1');
    const answer = await this.transport.post(path, serializeBody(body), call);
    return approvedOutcome(answer, 'payments.confirm3dsV1', reference);
  }

  /** POST /pg/api/v2/payment/{reference}/confirm with `{paRes: null, cres}` (3D Secure V2, after the challenge). */
  async confirm3dsV2(
    reference: string,
    cres: string,
    call?: CallOptions,
  ): Promise<ApprovedOutcome> {
    const path = `/pg/api/v2/payment/${pathParam(reference, 'reference')}/confirm`;
    const body = validRequest(
      ConfirmV2RequestSchema,
      { paRes: null, cres },
      'payments.confirm3dsV2',
    );
    const answer = await this.transport.post(path, serializeBody(body), call);
    return approvedOutcome(answer, 'payments.confirm3dsV2', reference);
  }

  /** POST /pg/api/v2/payment/3dsv2/{reference}/confirm, 3 s after the method content was rendered. */
  async confirmStep2(
    reference: string,
    ids: { txId: string; transactionId: string },
    call?: CallOptions,
  ): Promise<Step2Outcome> {
    const path = `/pg/api/v2/payment/3dsv2/${pathParam(reference, 'reference')}/confirm`;
    const body = validRequest(
      Step2ConfirmRequestSchema,
      { reference, txId: ids?.txId, transactionId: ids?.transactionId },
      'payments.confirmStep2',
    );
    const answer = await this.transport.post(path, serializeBody(body), call);
    const outcome = paymentOutcome(answer, 'payments.confirmStep2', reference);
    if (outcome.kind === 'approved' || outcome.kind === '3ds-v2-challenge') return outcome;
    throw new UnexpectedResponseError(
      `Step 2 confirm answered with ${outcome.kind}; expected an approval or a challenge`,
      {
        statusCode: answer.status,
        raw: answer.body,
        reference,
      },
    );
  }

  /** GET (full amount, no `transaction`) or POST (partial; amount 0 reverses) /pg/api/v2/payment/{reference}/execute. */
  execute(
    reference: string,
    transaction?: ExecuteAmount,
    call?: CallOptions,
  ): Promise<ExecuteOutcome> {
    return execute(this.transport, 'v2', reference, transaction, call);
  }

  /** GET (full settled amount) or POST (part) /pg/api/v2/payment/{reference}/refund; code 7 is `pending`. */
  refund(
    reference: string,
    transaction?: RefundAmount,
    call?: CallOptions,
  ): Promise<RefundOutcome> {
    return refund(this.transport, 'v2', reference, transaction, call);
  }

  /** POST /pg/api/v2/payment/refund/multiple; per-item results (code 7 = pending) are in `transactions`. */
  async refundMultiple(
    request: RefundMultipleRequest,
    call?: CallOptions,
  ): Promise<RefundMultipleResponse> {
    const body = validRequest(RefundMultipleRequestSchema, request, 'payments.refundMultiple');
    const answer = await this.transport.post(
      '/pg/api/v2/payment/refund/multiple',
      serializeBody(body),
      call,
    );
    return expectSuccess(answer, RefundMultipleResponseSchema, 'payments.refundMultiple');
  }
}
