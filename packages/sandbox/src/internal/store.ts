import { createHmac, randomBytes } from 'node:crypto';
import type { Behaviour, CardType } from './test-cards.js';
import { maskPan } from './format.js';
import { notFound } from './errors.js';
import type { CardRecord, Kind, Merchant, Status, Subscription, Txn } from './types.js';

export const MAIN_MERCHANT_ID = 1000;

/** The merchant the sandbox credentials belong to, and the two affiliates of the transfer fixture. */
export function fixtureMerchants(now: number): Merchant[] {
  const m = (id: number, name: string, email: string): Merchant => ({
    id,
    name,
    email,
    enabled: true,
    dateCreated: now,
    dateUpdated: now,
    logo: '',
  });
  return [
    m(MAIN_MERCHANT_ID, 'Sandbox Merchant', 'merchant@sandbox.invalid'),
    m(1001, 'Sandbox Affiliate One', 'affiliate-one@sandbox.invalid'),
    m(1002, 'Sandbox Affiliate Two', 'affiliate-two@sandbox.invalid'),
  ];
}

/** In-memory records with the indexes the hot paths need (no scans per request). */
export class Store {
  private nextId = 1;
  private readonly instance = randomBytes(2).toString('hex');
  private readonly panSecret = randomBytes(32);
  readonly txns = new Map<string, Txn>();
  /** The latest transactions, newest last, for the dashboard without scanning everything. */
  readonly recent: Txn[] = [];
  private readonly byMerchantRef = new Map<string, Txn>();
  /** 3-D Secure transactionId -> payment reference, for the access control pages. */
  readonly byThreeDSId = new Map<string, string>();
  /** Cards are shared between payments with the same number, so 100,000 payments cost one record. */
  private readonly cards = new Map<string, CardRecord>();
  readonly tokens = new Map<string, CardRecord>();
  readonly subscriptions = new Map<string, Subscription>();
  readonly merchants: Map<number, Merchant>;

  constructor(now: number) {
    this.merchants = new Map(fixtureMerchants(now).map((m) => [m.id, m]));
  }

  newReference(): string {
    return `SB${this.instance}${this.nextId.toString(36).toUpperCase().padStart(6, '0')}`;
  }

  add(fields: {
    kind: Kind;
    status: Status;
    merchantReference: string;
    amount: number;
    currency: string;
    now: number;
    merchantId?: number | undefined;
    paymentMethod?: Txn['paymentMethod'] | undefined;
    /** A payment or refund: the lookup by its merchant reference answers it, even over an earlier one. */
    claimsReference?: boolean | undefined;
  }): Txn {
    const reference = this.newReference();
    const txn: Txn = {
      id: this.nextId++,
      reference,
      merchantReference: fields.merchantReference,
      kind: fields.kind,
      status: fields.status,
      amount: fields.amount,
      currency: fields.currency,
      createdAt: fields.now,
      updatedAt: fields.now,
      merchantId: fields.merchantId ?? MAIN_MERCHANT_ID,
      authorized: 0,
      settled: 0,
      refunded: 0,
      paymentMethod: fields.paymentMethod ?? 'CC',
    };
    this.txns.set(reference, txn);
    this.recent.push(txn);
    if (this.recent.length > 1000) this.recent.splice(0, 500);
    // Payments and refunds take their merchant reference (refused when used before, unless the
    // sandbox makes a new transaction of a reused one: then the latest answers the lookup); a
    // transfer or subscription charge that happens to repeat it must not hide the payment.
    if (
      fields.merchantReference &&
      (fields.claimsReference === true || !this.byMerchantRef.has(fields.merchantReference))
    )
      this.byMerchantRef.set(fields.merchantReference, txn);
    return txn;
  }

  get(reference: string): Txn | undefined {
    return this.txns.get(reference);
  }

  require(reference: string, what = 'transaction'): Txn {
    const txn = this.txns.get(reference);
    if (!txn) throw notFound(`No ${what} with reference ${reference}`);
    return txn;
  }

  /** The payment or refund created with this merchant reference (the first, for transfers). */
  byMerchantReference(merchantReference: string): Txn | undefined {
    return this.byMerchantRef.get(merchantReference);
  }

  panKey(pan: string): string {
    return createHmac('sha256', this.panSecret).update(pan).digest('base64url').slice(0, 22);
  }

  cardByPan(pan: string): CardRecord | undefined {
    return this.cards.get(this.panKey(pan));
  }

  /** The shared record for this number, updated when it is used with a later (renewed) expiry. */
  internCard(
    pan: string,
    type: CardType,
    behaviour: Behaviour,
    holder: string,
    month: number,
    year: number,
  ): CardRecord {
    const key = this.panKey(pan);
    let card = this.cards.get(key);
    if (!card) {
      card = {
        panKey: key,
        masked: maskPan(pan),
        type,
        behaviour,
        cardHolder: holder,
        expiryMonth: month,
        expiryYear: year,
      };
      this.cards.set(key, card);
    } else if (year * 12 + month >= card.expiryYear * 12 + card.expiryMonth) {
      // Only a renewal moves the shared record; an old expiry in one request must not expire stored tokens.
      card.cardHolder = holder;
      card.expiryMonth = month;
      card.expiryYear = year;
    }
    return card;
  }
}
