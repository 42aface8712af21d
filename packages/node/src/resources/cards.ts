import {
  LookupCardRequestSchema,
  LookupCardResponseSchema,
  RegisterCardRequestSchema,
  RegisterCardResponseSchema,
  UnregisterCardRequestSchema,
  UnregisterCardResponseSchema,
  type LookupCardRequest,
  type MaskedCard,
  type RawCard,
} from '@pg-checkout/protocol';
import { UnexpectedResponseError } from '../errors.js';
import { expectSuccess, validRequest } from '../internal/answers.js';
import type { CallOptions, Transport } from '../internal/transport.js';
import { serializeBody } from '../signing.js';

/** The card vault: store a card once, pay with its token. */
export class Cards {
  constructor(private readonly transport: Transport) {}

  /** POST /pg/api/v2/card/register; returns the vault token. */
  async register(creditCard: RawCard, call?: CallOptions): Promise<{ token: string }> {
    const body = validRequest(RegisterCardRequestSchema, { creditCard }, 'cards.register');
    const answer = await this.transport.post('/pg/api/v2/card/register', serializeBody(body), call);
    const data = expectSuccess(answer, RegisterCardResponseSchema, 'cards.register', 'card');
    if (!data.token) {
      throw new UnexpectedResponseError('the gateway registered the card but sent no token', {
        statusCode: answer.status,
        raw: answer.body,
      });
    }
    return { token: data.token };
  }

  /** POST /pg/api/v2/card/lookup by one of cardNumber, token, transactionReference; the number comes back masked. */
  async lookup(by: LookupCardRequest, call?: CallOptions): Promise<MaskedCard> {
    const body = validRequest(LookupCardRequestSchema, by, 'cards.lookup');
    const answer = await this.transport.post(
      '/pg/api/v2/card/lookup',
      serializeBody(body),
      call,
      false,
    );
    const data = expectSuccess(answer, LookupCardResponseSchema, 'cards.lookup');
    if (!data.card) {
      throw new UnexpectedResponseError('the gateway found the card but sent no card object', {
        statusCode: answer.status,
        raw: answer.body,
      });
    }
    return data.card;
  }

  /** POST /pg/api/v2/card/unregister. */
  async unregister(token: string, call?: CallOptions): Promise<void> {
    const body = validRequest(UnregisterCardRequestSchema, { token }, 'cards.unregister');
    const answer = await this.transport.post(
      '/pg/api/v2/card/unregister',
      serializeBody(body),
      call,
    );
    expectSuccess(answer, UnregisterCardResponseSchema, 'cards.unregister');
  }
}
