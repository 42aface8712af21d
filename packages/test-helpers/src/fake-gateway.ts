import { randomUUID } from 'node:crypto';
import type {
  CheckoutGateway,
  ListedTransaction,
  LookupRecord,
  PaymentOutcome,
} from '@pg-checkout/server';
import { testProfile } from './profile.js';

interface RefundInput {
  reference?: string;
  currency: string;
  amount: number;
}
type RefundAnswer = { kind: 'refunded' } | { kind: 'pending'; message: string };

// Error classes named like @pg-checkout/node's, which the middleware recognizes by class name.
export class GatewayError extends Error {
  code: number | undefined;
  originalErrorCode: string | undefined;
  statusCode: number | undefined;
  reference: string | undefined;
  constructor(
    message: string,
    fields: {
      code?: number;
      originalErrorCode?: string;
      statusCode?: number;
      reference?: string;
    } = {},
  ) {
    super(message);
    this.name = new.target.name;
    Object.assign(this, fields);
  }
}
export class CardDeclinedError extends GatewayError {}
export class RequestRejectedError extends GatewayError {}
export class DuplicateReferenceError extends RequestRejectedError {}
export class ThreeDSecureFailedError extends GatewayError {}
export class GatewayTimeoutError extends GatewayError {}
export class GatewayConnectionError extends GatewayError {}

interface Txn {
  reference: string;
  merchantReference: string;
  amount: number;
  currency: string;
  status: string;
  number: string;
  step2?: 'approve' | 'challenge' | 'fail';
  pending?: boolean;
  createdAt: number;
  /** A refund's payment: the fake's own bookkeeping, never shown (the spec links a refund to nothing). */
  paymentOf?: string;
}

/**
 * Choices the spec leaves open, as the sandbox's profiles name them: the default refuses what the
 * strict profile lets through (an over-refund, a reused merchant reference).
 */
export interface FakeGatewayOptions {
  /** `'accept'`: a refund over what is left goes through (the spec does not promise fin058). */
  overRefund?: 'refuse' | 'accept';
  /** `'new-transaction'`: a reused merchant reference makes a new transaction; its lookup answers the latest. */
  duplicateReference?: 'refuse' | 'new-transaction';
  /** Each refund call waits this long before it is recorded: concurrent refunds overlap at the gateway. */
  refundLatencyMs?: number;
}

/**
 * In-process stand-in for the gateway client, with the sandbox's card behaviours; used where a test
 * must control a fault precisely (e.g. "processed, then timed out").
 */
export class FakeGateway implements CheckoutGateway {
  readonly txns = new Map<string, Txn>();
  readonly calls: string[] = [];
  /** Next create call: `'processed'` records the payment then times out; `'lost'` times out before. */
  createFault: 'processed' | 'lost' | undefined;
  /** Every reconcile throws while true (the gateway still unreachable). */
  reconcileDown = false;
  /** Runs once, right after the next create call reached the gateway. */
  afterCreate: (() => void) | undefined;
  /** Next create call records the payment, then never answers (the instance that sent it died). */
  createHangs = false;
  readonly vault = new Map<string, string>();
  readonly options: Required<FakeGatewayOptions>;
  /** Next refund call: `'processed'` records the refund then times out; `'lost'` times out before. */
  refundFault: 'processed' | 'lost' | undefined;

  constructor(options: FakeGatewayOptions = {}) {
    // Unset, each follows the tests' sandbox profile (SANDBOX_PROFILE=strict: the spec's least helpful answer).
    const strict = testProfile() === 'strict';
    this.options = {
      overRefund: options.overRefund ?? (strict ? 'accept' : 'refuse'),
      duplicateReference: options.duplicateReference ?? (strict ? 'new-transaction' : 'refuse'),
      refundLatencyMs: options.refundLatencyMs ?? 0,
    };
  }

  payments = {
    create: async (request: Record<string, unknown>): Promise<PaymentOutcome> => {
      this.calls.push('create');
      this.lastCreate = request;
      const fault = this.createFault;
      this.createFault = undefined;
      const after = this.afterCreate;
      this.afterCreate = undefined;
      after?.();
      if (fault === 'lost') throw new GatewayTimeoutError('timed out');
      const card = request.creditCard as { number?: string; token?: string };
      const number = card.number ?? this.vault.get(card.token ?? '') ?? '';
      const transaction = request.transaction as {
        reference: string;
        amount: number;
        currency: string;
      };
      this.#refuseDuplicate(transaction.reference);
      const reference = `pg-${randomUUID()}`;
      const txn: Txn = {
        reference,
        merchantReference: transaction.reference,
        amount: transaction.amount,
        currency: transaction.currency,
        status: 'THREE_D_SECURE',
        number,
        createdAt: Date.now(),
      };
      this.txns.set(reference, txn);
      const hangs = this.createHangs;
      this.createHangs = false;
      const outcome = this.#outcome(txn);
      if (hangs) return new Promise<never>(() => undefined);
      if (fault === 'processed') throw new GatewayTimeoutError('timed out');
      return outcome;
    },
    confirm3dsV1: async (reference: string, paRes: string) =>
      this.#confirm('confirm3dsV1', reference, paRes),
    confirm3dsV2: async (reference: string, cres: string) =>
      this.#confirm('confirm3dsV2', reference, cres),
    confirmStep2: async (
      reference: string,
      ids: { txId: string; transactionId: string },
    ): Promise<PaymentOutcome> => {
      this.calls.push('confirmStep2');
      const txn = this.#txn(reference);
      if (ids.txId !== `txid-${reference}`) throw new GatewayError('bad txId', { code: -1 });
      if (txn.step2 === 'approve') {
        txn.status = 'SETTLED';
        return { kind: 'approved', reference, message: 'Approved' };
      }
      if (txn.step2 === 'fail') {
        txn.status = 'FAILED';
        throw new ThreeDSecureFailedError('Authentication failed.', {
          code: 3,
          originalErrorCode: 'fin006',
          reference,
        });
      }
      return { kind: '3ds-v2-challenge', reference, threeDSecureV2: this.#challenge(reference) };
    },
    refund: async (reference: string, transaction: RefundInput) =>
      this.#refund('refund', reference, transaction),
  };

  lookups = {
    payment: async (reference: string): Promise<LookupRecord> => this.#lookup('lookup', reference),
    redirect: async (reference: string): Promise<LookupRecord> =>
      this.#lookup('redirectLookup', reference),
    /** As the spec writes it: all given filters apply together; `paymentReference` is one transaction's reference. */
    list: async (filters: {
      merchantReference?: string;
      paymentReference?: string;
      fromDate?: string;
      toDate?: string;
    }): Promise<ListedTransaction[]> => {
      this.calls.push('list');
      const from = filters.fromDate ? Date.parse(filters.fromDate) : -Infinity;
      const to = filters.toDate ? Date.parse(filters.toDate) : Infinity;
      return [...this.txns.values()]
        .filter(
          (t) =>
            (filters.paymentReference === undefined || t.reference === filters.paymentReference) &&
            (filters.merchantReference === undefined ||
              t.merchantReference === filters.merchantReference) &&
            t.createdAt >= from &&
            t.createdAt <= to,
        )
        .map((t) => ({
          reference: t.reference,
          merchantReference: t.merchantReference,
          amount: t.amount,
          currency: t.currency,
          status: t.status,
          pending: t.pending === true,
        }));
    },
  };

  #lookup(name: string, reference: string): LookupRecord {
    this.calls.push(name);
    const txn = this.#txn(reference);
    return { reference, amount: txn.amount, currency: txn.currency, status: txn.status };
  }

  foreign = {
    create: async (request: Record<string, unknown>) => this.#redirect('foreign', request),
    refund: async (reference: string, transaction: RefundInput) =>
      this.#refund('foreignRefund', reference, transaction),
  };

  /** A settled card payment made directly at the gateway: its reference. */
  settle(amount: number, merchantReference: string, currency = 'ZAR'): string {
    const reference = `pg-${randomUUID()}`;
    this.txns.set(reference, {
      reference,
      merchantReference,
      amount,
      currency,
      status: 'SETTLED',
      number: '4111111111111111',
      createdAt: Date.now(),
    });
    return reference;
  }

  /** Test-only view: cents refunded on a payment (the fake knows which refund is whose; the spec's calls do not say). */
  refundedOf(payment: string): number {
    return this.refundsOf(payment).reduce((sum, t) => sum - t.amount, 0);
  }

  /** Test-only view: a payment's refunds that moved money. */
  refundsOf(payment: string): Txn[] {
    return [...this.txns.values()].filter((t) => t.paymentOf === payment && t.status !== 'FAILED');
  }

  async #refund(name: string, reference: string, input: RefundInput): Promise<RefundAnswer> {
    this.calls.push(name);
    const fault = this.refundFault;
    this.refundFault = undefined;
    if (this.options.refundLatencyMs > 0)
      await new Promise((resolve) => setTimeout(resolve, this.options.refundLatencyMs));
    if (fault === 'lost') throw new GatewayTimeoutError('timed out');
    const payment = this.#txn(reference);
    if (payment.status !== 'SETTLED' || payment.amount <= 0)
      throw new RequestRejectedError('Transaction is not settled', {
        code: -1,
        originalErrorCode: 'fin058',
      });
    const left = payment.amount - this.refundedOf(reference);
    if (this.options.overRefund === 'refuse' && input.amount > left)
      throw new RequestRejectedError(`Only ${left} cents are left to refund`, {
        code: -1,
        originalErrorCode: 'fin058',
      });
    if (input.reference !== undefined && this.options.duplicateReference === 'refuse')
      this.#refuseDuplicate(input.reference);
    const own = `pg-${randomUUID()}`;
    this.txns.set(own, {
      reference: own,
      merchantReference: input.reference ?? '',
      amount: -input.amount,
      currency: input.currency,
      status: 'REFUNDED',
      number: '',
      createdAt: Date.now(),
      paymentOf: reference,
    });
    if (this.refundedOf(reference) >= payment.amount) payment.status = 'REFUNDED';
    if (fault === 'processed') throw new GatewayTimeoutError('timed out');
    return { kind: 'refunded' };
  }
  redirects = {
    create: async (request: Record<string, unknown>) => this.#redirect('redirect', request),
    createEft: async (request: Record<string, unknown>) => this.#redirect('eft', request),
  };
  cards = {
    register: async (creditCard: { number: string }) => {
      // As the sandbox (and a vault looked up by card number): one token per card, whoever saves it.
      for (const [token, number] of this.vault) if (number === creditCard.number) return { token };
      const token = `tok-${randomUUID()}`;
      this.vault.set(token, creditCard.number);
      return { token };
    },
    unregister: async (token: string) => {
      this.calls.push('unregister');
      this.vault.delete(token);
      return { success: true };
    },
  };

  lastRedirect: Record<string, unknown> | undefined;
  lastCreate: Record<string, unknown> | undefined;

  async reconcile(merchantReference: string) {
    this.calls.push('reconcile');
    if (this.reconcileDown) throw new GatewayConnectionError('connection refused');
    // The latest with that merchant reference (only one unless reused references make new ones).
    const txn = [...this.txns.values()].findLast((t) => t.merchantReference === merchantReference);
    if (!txn) return { found: false as const };
    return {
      found: true as const,
      record: {
        reference: txn.reference,
        amount: txn.amount,
        currency: txn.currency,
        status: txn.status,
        pending: txn.pending === true,
      },
    };
  }

  /** Payments that were charged (approved), for "none made twice" checks. */
  charged(): Txn[] {
    return [...this.txns.values()].filter((t) => t.status === 'SETTLED');
  }

  /** The charged payments of one order: its attempts' merchant references are `{order}-{n}`. */
  chargesOf(order: string): Txn[] {
    return this.charged().filter((t) => t.merchantReference.startsWith(`${order}-`));
  }

  #txn(reference: string): Txn {
    const txn = this.txns.get(reference);
    if (!txn)
      throw new RequestRejectedError('Transaction not found', {
        code: -1,
        originalErrorCode: 'fin030',
      });
    return txn;
  }

  /** One merchant reference, one transaction: as the sandbox, a reused one is refused (fin094). */
  #refuseDuplicate(merchantReference: string): void {
    if (this.options.duplicateReference === 'new-transaction') return;
    for (const txn of this.txns.values())
      if (txn.merchantReference === merchantReference)
        throw new DuplicateReferenceError(
          `transaction.reference ${merchantReference} was already used by payment ${txn.reference}`,
          { code: -1, originalErrorCode: 'fin094' },
        );
  }

  #challenge(reference: string) {
    return {
      tdsMethodContent: null,
      txId: null,
      transactionId: `tx-${reference}`,
      sessionData: `sd-${reference}`,
      acsUrl: 'https://acs.bank.test/challenge',
      creq: 'Y3JlcQ',
    };
  }

  #outcome(txn: Txn): PaymentOutcome {
    const { reference } = txn;
    switch (txn.number) {
      case '4000000000000002':
        txn.status = 'FAILED';
        throw new CardDeclinedError('Declined by the issuer.', {
          code: -1,
          originalErrorCode: 'fin005',
          reference,
        });
      case '4000000000003097':
        return {
          kind: '3ds-v1',
          reference,
          threeDSecure: {
            acsUrl: 'https://acs.bank.test/v1',
            transactionId: `md-${reference}`,
            paReq: 'cGFyZXE',
          },
        };
      case '4000000000003055':
        return { kind: '3ds-v2-challenge', reference, threeDSecureV2: this.#challenge(reference) };
      case '4000000000003063':
      case '4000000000003220':
      case '4000000000000127':
        txn.step2 =
          txn.number === '4000000000003220'
            ? 'approve'
            : txn.number === '4000000000000127'
              ? 'fail'
              : 'challenge';
        return {
          kind: '3ds-v2-method',
          reference,
          threeDSecureV2: {
            tdsMethodContent: `<iframe name="m" style="display:none"></iframe><form id="f" target="m" method="post" action="https://acs.bank.test/method"><input type="hidden" name="threeDSMethodData" value="abc"></form><script>document.getElementById('f').submit();</script>`,
            txId: `txid-${reference}`,
            transactionId: `tx-${reference}`,
            sessionData: null,
            acsUrl: null,
            creq: null,
          },
        };
      default:
        txn.status = 'SETTLED';
        return { kind: 'approved', reference, message: 'Approved' };
    }
  }

  async #confirm(name: string, reference: string, proof: string) {
    this.calls.push(name);
    const txn = this.#txn(reference);
    if (txn.status !== 'THREE_D_SECURE')
      throw new RequestRejectedError('Transaction is not waiting for 3-D Secure', {
        code: -1,
        originalErrorCode: 'fin058',
      });
    // The bank's genuine answers are 'good-proof' and 'failed-proof'; anything else is junk the
    // gateway refuses without deciding the payment (as the sandbox does with fin030).
    if (proof !== 'good-proof' && proof !== 'failed-proof')
      throw new RequestRejectedError('cres is not a value issued by the access control server', {
        code: -1,
        originalErrorCode: 'fin030',
      });
    if (proof !== 'good-proof') {
      txn.status = 'FAILED';
      throw new ThreeDSecureFailedError('Authentication failed.', {
        code: 3,
        originalErrorCode: 'fin006',
        reference,
      });
    }
    txn.status = 'SETTLED';
    return { kind: 'approved' as const, reference, message: 'Approved' };
  }

  #redirect(kind: string, request: Record<string, unknown>) {
    this.calls.push(kind);
    this.lastRedirect = request;
    const transaction = request.transaction as {
      reference: string;
      amount: number;
      currency: string;
    };
    this.#refuseDuplicate(transaction.reference);
    const consumer = request.consumer as { consumerAddress?: unknown } | undefined;
    if (kind === 'redirect' && transaction.currency !== 'ZAR' && !consumer?.consumerAddress)
      throw new RequestRejectedError('consumer.consumerAddress is required for non-ZAR payments', {
        code: -1,
        originalErrorCode: 'fin030',
      });
    const reference = `pg-${randomUUID()}`;
    this.txns.set(reference, {
      reference,
      merchantReference: transaction.reference,
      amount: transaction.amount,
      currency: transaction.currency,
      status: 'NEW',
      number: '',
      createdAt: Date.now(),
    });
    return { reference, redirectUrl: `https://pay.gateway.test/${kind}/${reference}` };
  }
}
