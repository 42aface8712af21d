import {
  CreateEftRequestSchema,
  CreateEftResponseSchema,
  CreateRedirectRequestSchema,
  RedirectResponseSchema,
  type CreateEftRequest,
  type CreateRedirectRequest,
} from '@pg-checkout/protocol';
import { expectSuccess, validRequest } from '../internal/answers.js';
import type { RedirectOutcome } from '../outcomes.js';
import type { CallOptions, Transport } from '../internal/transport.js';
import { serializeBody } from '../signing.js';
import { redirectOutcome } from '../internal/redirect-outcome.js';

/** Hosted payment page (redirect) and instant EFT: both end in a redirectUrl. */
export class Redirects {
  constructor(private readonly transport: Transport) {}

  /** POST /pg/api/v2/redirect/create. */
  async create(request: CreateRedirectRequest, call?: CallOptions): Promise<RedirectOutcome> {
    const body = validRequest(CreateRedirectRequestSchema, request, 'redirects.create');
    const answer = await this.transport.post(
      '/pg/api/v2/redirect/create',
      serializeBody(body),
      call,
    );
    return redirectOutcome(
      answer,
      expectSuccess(answer, RedirectResponseSchema, 'redirects.create'),
      'redirects.create',
    );
  }

  /** POST /pg/api/v2/payment/create/eft. */
  async createEft(request: CreateEftRequest, call?: CallOptions): Promise<RedirectOutcome> {
    const body = validRequest(CreateEftRequestSchema, request, 'redirects.createEft');
    const answer = await this.transport.post(
      '/pg/api/v2/payment/create/eft',
      serializeBody(body),
      call,
    );
    return redirectOutcome(
      answer,
      expectSuccess(answer, CreateEftResponseSchema, 'redirects.createEft'),
      'redirects.createEft',
    );
  }
}
