import type { CardDetails } from '@pg-checkout/protocol/browser';

/**
 * The part of `@pg-checkout/node`'s `GatewayClient` the middleware calls. A real client fits it;
 * so does a test double. Shapes follow docs/contracts.md.
 */
export interface CallOptions {
  forwardedFor?: string | undefined;
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

export interface ThreeDSecureV1 {
  acsUrl: string;
  transactionId: string;
  paReq: string;
}

export interface ThreeDSecureV2 {
  tdsMethodContent: string | null;
  txId: string | null;
  transactionId: string;
  sessionData: string | null;
  acsUrl: string | null;
  creq: string | null;
}

export type PaymentOutcome =
  | {
      kind: 'approved';
      reference: string;
      transactionDate?: string | undefined;
      message?: string | undefined;
      originalErrorCode?: string | undefined;
    }
  | { kind: '3ds-v1'; reference: string; threeDSecure: ThreeDSecureV1 }
  | { kind: '3ds-v2-method'; reference: string; threeDSecureV2: ThreeDSecureV2 }
  | { kind: '3ds-v2-challenge'; reference: string; threeDSecureV2: ThreeDSecureV2 };

export interface ConfirmOutcome {
  kind: 'approved';
  reference?: string | undefined;
  message?: string | undefined;
  originalErrorCode?: string | undefined;
}

/** Transaction lookup record (the fields the middleware reads). */
export interface LookupRecord {
  reference: string;
  amount: number;
  currency: string;
  status: string;
  pending?: boolean | null | undefined;
}

/** A transaction as the gateway's list gives it (the fields the sweep reads). */
export interface ListedTransaction {
  reference: string;
  merchantReference?: string | null | undefined;
  amount: number;
  currency: string;
  status: string;
  /** True (with status `NEW`) for a pending refund. */
  pending?: boolean | null | undefined;
}

/** The card the shopper typed, as the browser sends it and the vault registers it: one shape, declared in the protocol. */
export type CardInput = CardDetails;

export interface Consumer {
  name?: string | undefined;
  surname?: string | undefined;
  email?: string | undefined;
  mobile?: string | undefined;
  consumerAddress?:
    | {
        addressLineOne?: string | undefined;
        city?: string | undefined;
        postCode?: string | undefined;
        country?: string | undefined;
      }
    | undefined;
}

export interface RedirectUrls {
  success: string;
  cancel: string;
  error: string;
  notify?: string | undefined;
}

export interface TransactionInput {
  reference: string;
  currency: string;
  amount: number;
}

export interface CheckoutGateway {
  /**
   * Where the gateway's requests go (a `GatewayClient`'s own getter). In production it must be https
   * (or loopback); a gateway object that does not declare it is refused there, since the checkout
   * cannot tell where card data would travel.
   */
  readonly baseUrl?: string;
  payments: {
    create(request: Record<string, unknown>, options?: CallOptions): Promise<PaymentOutcome>;
    confirm3dsV1(reference: string, paRes: string, options?: CallOptions): Promise<ConfirmOutcome>;
    confirm3dsV2(reference: string, cres: string, options?: CallOptions): Promise<ConfirmOutcome>;
    confirmStep2(
      reference: string,
      ids: { txId: string; transactionId: string },
      options?: CallOptions,
    ): Promise<PaymentOutcome>;
  };
  lookups: {
    payment(reference: string, options?: CallOptions): Promise<LookupRecord>;
    redirect(reference: string, options?: CallOptions): Promise<LookupRecord>;
    /** POST /pg/api/v2/payment/list; the sweep skips the gateway's list when a client lacks it. */
    list?(
      filters: { fromDate?: string; toDate?: string; paymentReference?: string },
      options?: CallOptions,
    ): Promise<ListedTransaction[]>;
  };
  foreign: {
    create(
      request: Record<string, unknown>,
      options?: CallOptions,
    ): Promise<{ reference: string; redirectUrl: string }>;
  };
  redirects: {
    create(
      request: Record<string, unknown>,
      options?: CallOptions,
    ): Promise<{ reference: string; redirectUrl: string }>;
    createEft(
      request: Record<string, unknown>,
      options?: CallOptions,
    ): Promise<{ reference: string; redirectUrl: string }>;
  };
  cards: {
    register(creditCard: CardInput, options?: CallOptions): Promise<{ token: string }>;
    unregister(token: string, options?: CallOptions): Promise<unknown>;
  };
  reconcile(
    merchantReference: string,
    options?: CallOptions,
  ): Promise<{ found: false } | { found: true; record: LookupRecord }>;
}
