import {
  CreatePaymentResponseSchema,
  ThreeDSecureV2ChallengeSchema,
  ThreeDSecureV2MethodSchema,
  maskCardData,
} from '@pg-checkout/protocol';
import { UnexpectedResponseError } from '../errors.js';
import type { ApprovedOutcome, PaymentOutcome } from '../outcomes.js';
import { expectSuccess } from './answers.js';
import type { Answer } from './transport.js';

function unexpected(answer: Answer, message: string): UnexpectedResponseError {
  return new UnexpectedResponseError(message, { statusCode: answer.status, raw: answer.body });
}

/** An approval: success true and code 1 (or no code), with no 3D Secure object. */
export function approvedOutcome(answer: Answer, what: string, reference?: string): ApprovedOutcome {
  const data = expectSuccess(answer, CreatePaymentResponseSchema, what, 'card', reference);
  const ref = data.reference ?? reference;
  if (!ref) throw unexpected(answer, `the gateway's approval for ${what} carries no reference`);
  if (data.code !== undefined && data.code !== null && data.code !== 1) {
    throw unexpected(
      answer,
      `the gateway answered ${what} with success true and code ${data.code}, expected 1`,
    );
  }
  return {
    kind: 'approved',
    reference: ref,
    transactionDate: data.transactionDate ?? undefined,
    message: data.message ?? '',
    ...(data.originalErrorCode ? { originalErrorCode: data.originalErrorCode } : {}),
    raw: maskCardData(answer.body),
  };
}

/** Create payment and Step 2 confirm: an approval or the 3D Secure step the gateway asks for. */
export function paymentOutcome(answer: Answer, what: string, reference?: string): PaymentOutcome {
  const data = expectSuccess(answer, CreatePaymentResponseSchema, what, 'card', reference);
  const ref = data.reference ?? reference;
  if (!ref) throw unexpected(answer, `the gateway's answer to ${what} carries no reference`);
  const raw = maskCardData(answer.body);
  if (data.threeDSecureV2) {
    const method = ThreeDSecureV2MethodSchema.safeParse(data.threeDSecureV2);
    if (method.success)
      return { kind: '3ds-v2-method', reference: ref, threeDSecureV2: method.data, raw };
    const challenge = ThreeDSecureV2ChallengeSchema.safeParse(data.threeDSecureV2);
    if (challenge.success)
      return { kind: '3ds-v2-challenge', reference: ref, threeDSecureV2: challenge.data, raw };
    throw unexpected(
      answer,
      `threeDSecureV2 in the answer to ${what} is neither the Step 2 nor the Step 3 shape`,
    );
  }
  if (data.threeDSecure)
    return { kind: '3ds-v1', reference: ref, threeDSecure: data.threeDSecure, raw };
  if (data.code === 2)
    throw unexpected(answer, `the gateway answered ${what} with code 2 but no 3D Secure object`);
  return approvedOutcome(answer, what, reference);
}
