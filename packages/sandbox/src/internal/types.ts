import type { Behaviour, CardType } from './test-cards.js';

export type Status =
  | 'NEW'
  | 'AUTHORIZED'
  | 'SETTLED'
  | 'REFUNDED'
  | 'THREE_D_SECURE'
  | 'FAILED'
  | 'REVERSED'
  | 'CANCELLED';

/** How the transaction was created; decides which endpoints and pages apply to it. */
export type Kind = 'card' | 'foreign' | 'redirect' | 'eft' | 'refund' | 'transfer';

/** A card as the sandbox keeps it: never the number, only its masked form and a keyed hash. */
export interface CardRecord {
  panKey: string;
  masked: string;
  type: CardType;
  behaviour: Behaviour;
  cardHolder: string;
  expiryMonth: number;
  expiryYear: number;
  token?: string;
  /** Reference of the first recurring payment made with this card (recurring rule 3). */
  firstRecurringRef?: string;
}

export interface Consumer {
  name?: string;
  surname?: string;
  email?: string;
  mobile?: string;
}

export interface Urls {
  success?: string;
  cancel?: string;
  error?: string;
  notify?: string;
}

export interface ThreeDSState {
  version: 1 | 2;
  step: 'method' | 'challenge' | 'done';
  transactionId: string;
  txId?: string;
  sessionData?: string;
  callbackUrl?: string;
  /** Challenge forced by `threeDSecure: true` on a card that would otherwise pass frictionless. */
  forceChallenge?: boolean;
  methodReceivedAt?: number;
  step2ConfirmAt?: number;
  challengeShownAt?: number;
  challengeCompletedAt?: number;
  confirmedAt?: number;
  /** The ACS outcome, and the nonce that binds the issued cres/PaRes to this transaction. */
  authResult?: 'Y' | 'N';
  resultNonce?: string;
}

export interface Attempt {
  at: number;
  status?: number;
  error?: string;
  durationMs: number;
}

export interface Delivery {
  id: string;
  event: 'payment' | 'payout';
  url: string;
  payload: Record<string, unknown>;
  state: 'pending' | 'delivered' | 'failed';
  firstAttemptAt: number;
  nextAttemptAt?: number;
  attempts: Attempt[];
}

export interface TransferItem {
  merchantId: number;
  merchantReference: string;
  currency: string;
  amount: number;
}

/** Fields only hosted (v3, redirect, EFT) payments carry, kept apart to keep card payments small. */
export interface HostedInfo {
  urls: Urls;
  authorize: boolean;
  hold: boolean;
  threeDSecure?: boolean;
  recurring?: boolean;
  allowMultiCurrencyPurchase?: boolean;
  pageUrlKey?: string;
  description?: string;
  destinationCountry?: string;
  pax?: number;
  transactionDay?: string;
  /** Prepared transfer to affiliates; `fromReference` is the transfer's own reference. */
  transfer?: { fromReference: string; toMerchants: TransferItem[]; executed?: boolean };
}

export interface Txn {
  id: number;
  reference: string;
  merchantReference: string;
  kind: Kind;
  status: Status;
  amount: number;
  currency: string;
  displayCurrency?: string;
  createdAt: number;
  updatedAt: number;
  merchantId: number;
  source?: string;
  message?: string;
  authorized: number;
  settled: number;
  /** Refunded plus pending refunds, so a pending refund cannot be refunded twice. */
  refunded: number;
  autoExecute?: boolean;
  card?: CardRecord;
  consumer?: Consumer;
  hosted?: HostedInfo;
  threeDS?: ThreeDSState;
  webhooks?: Delivery[];
  /** Refunds: the payment refunded; transfers: the payment they came from. */
  parent?: string;
  pending?: boolean;
  suspended?: boolean;
  transferDate?: number;
  /** Transfers: the merchant the funds come from (an outgoing, negative row in its payout). */
  fromMerchantId?: number;
  /** Transfers: the sender's payout that carried the outgoing row. */
  outgoingSettlement?: { id: number; date: number; amount: number };
  recurring?: boolean;
  subscriptionRef?: string;
  paymentMethod: 'CC' | 'EFT' | 'TRANSFER';
  settlement?: { id: number; date: number; amount: number };
}

export interface Subscription {
  reference: string;
  interval: 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
  trialDays: number;
  firstname?: string;
  lastname?: string;
  email?: string;
  amount: number;
  currency: string;
  card: CardRecord;
  /** PENDING until the payment that created it is approved; FAILED when that payment failed. */
  status: 'PENDING' | 'ACTIVE' | 'CANCELLED' | 'FAILED';
  nextBillingAt: number;
  charges: string[];
  initialReference: string;
}

export interface Merchant {
  id: number;
  name: string;
  email: string;
  enabled: boolean;
  dateCreated: number;
  dateUpdated: number;
  logo: string;
}

export interface Settings {
  notifyFailed: boolean;
  notifyPending: boolean;
  notifyRefunds: boolean;
  /** v3 create answers code 19 when false. */
  paymentPageEnabled: boolean;
  /** pageUrlKey values that have a payment page; any other key gets code 19. */
  pageUrlKeys: string[];
  /** HTTP status of API failures: '200' (the gateway's own clients expect it) or '4xx' (400, 404, 409). */
  failureStatus: FailureStatus;
}

export type FailureStatus = '200' | '4xx';
export const FAILURE_STATUSES: readonly FailureStatus[] = ['200', '4xx'];
