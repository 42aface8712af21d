import {
  ExecuteRequestSchema,
  ExecuteResponseSchema,
  RefundRequestSchema,
  RefundResponseSchema,
  maskCardData,
} from '@pg-checkout/protocol';
import type { ExecuteOutcome, RefundOutcome } from '../outcomes.js';
import { serializeBody } from '../signing.js';
import { expectSuccess, failure, pathParam, validRequest } from './answers.js';
import type { CallOptions, Transport } from './transport.js';

export interface ExecuteAmount {
  currency: string;
  /** Cents; 0 reverses the authorization. */
  amount: number;
}

export interface RefundAmount {
  /** Optional merchant reference for the refund (reconcile by it later). */
  reference?: string;
  currency: string;
  amount: number;
}

/** Execute (capture): GET for the full authorized amount, POST for a partial one; never retried. */
export async function execute(
  transport: Transport,
  version: 'v2' | 'v3',
  reference: string,
  transaction: ExecuteAmount | undefined,
  call: CallOptions | undefined,
): Promise<ExecuteOutcome> {
  const path = `/pg/api/${version}/payment/${pathParam(reference, 'reference')}/execute`;
  const what = `${version} execute`;
  let answer;
  if (transaction === undefined) {
    answer = await transport.get(path, call, false);
  } else {
    const body = validRequest(ExecuteRequestSchema, { transaction }, what);
    answer = await transport.post(path, serializeBody(body), call);
  }
  const data = expectSuccess(answer, ExecuteResponseSchema, what, 'general', reference);
  return {
    kind: transaction?.amount === 0 ? 'reversed' : 'executed',
    transactionDate: data.transactionDate ?? undefined,
    raw: maskCardData(answer.body),
  };
}

/** Refund: GET for the full settled amount, POST for a part; code 7 is a pending outcome, not an error. */
export async function refund(
  transport: Transport,
  version: 'v2' | 'v3',
  reference: string,
  transaction: RefundAmount | undefined,
  call: CallOptions | undefined,
): Promise<RefundOutcome> {
  const path = `/pg/api/${version}/payment/${pathParam(reference, 'reference')}/refund`;
  const what = `${version} refund`;
  let answer;
  if (transaction === undefined) {
    answer = await transport.get(path, call, false);
  } else {
    const body = validRequest(RefundRequestSchema, { transaction }, what);
    answer = await transport.post(path, serializeBody(body), call);
  }
  const body = answer.body;
  if (!body.success && body.code === 7) {
    return {
      kind: 'pending',
      code: 7,
      originalErrorCode:
        typeof body.originalErrorCode === 'string' ? body.originalErrorCode : 'fin012',
      message:
        typeof body.message === 'string' ? body.message : 'refund is being processed manually',
      raw: maskCardData(body),
    };
  }
  if (!body.success) throw failure(answer, 'general', reference);
  const data = expectSuccess(answer, RefundResponseSchema, what);
  return {
    kind: 'refunded',
    transactionDate: data.transactionDate ?? undefined,
    raw: maskCardData(body),
  };
}
