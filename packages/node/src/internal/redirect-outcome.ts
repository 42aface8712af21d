import { maskCardData } from '@pg-checkout/protocol';
import { UnexpectedResponseError } from '../errors.js';
import type { RedirectOutcome } from '../outcomes.js';
import type { Answer } from './transport.js';

export function redirectOutcome(
  answer: Answer,
  data: {
    reference?: string | null | undefined;
    redirectUrl?: string | null | undefined;
    message?: string | null | undefined;
  },
  what: string,
): RedirectOutcome {
  if (!data.reference || !data.redirectUrl) {
    throw new UnexpectedResponseError(
      `the gateway's answer to ${what} lacks reference or redirectUrl`,
      {
        statusCode: answer.status,
        raw: answer.body,
      },
    );
  }
  return {
    reference: data.reference,
    redirectUrl: data.redirectUrl,
    message: data.message ?? '',
    raw: maskCardData(answer.body),
  };
}
