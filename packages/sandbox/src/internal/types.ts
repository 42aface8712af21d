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
  token?: string | undefined;
  /** Reference of the first recurring payment made with this card (recurring rule 3). */
  firstRecurringRef?: string | undefined;
}

export interface Consumer {
  name?: string | undefined;
  surname?: string | undefined;
  email?: string | undefined;
  mobile?: string | undefined;
}

export interface Urls {
  success?: string | undefined;
  cancel?: string | undefined;
  error?: string | undefined;
  notify?: string | undefined;
}

export interface ThreeDSState {
  version: 1 | 2;
  step: 'method' | 'challenge' | 'done';
  transactionId: string;
  txId?: string | undefined;
  sessionData?: string | undefined;
  callbackUrl?: string | undefined;
  /** Challenge forced by `threeDSecure: true` on a card that would otherwise pass frictionless. */
  forceChallenge?: boolean | undefined;
  methodReceivedAt?: number | undefined;
  step2ConfirmAt?: number | undefined;
  challengeShownAt?: number | undefined;
  challengeCompletedAt?: number | undefined;
  confirmedAt?: number | undefined;
  /** The ACS outcome, and the nonce that binds the issued cres/PaRes to this transaction. */
  authResult?: 'Y' | 'N' | undefined;
  resultNonce?: string | undefined;
}

export interface Attempt {
  at: number;
  status?: number | undefined;
  error?: string | undefined;
  durationMs: number;
}

export interface Delivery {
  id: string;
  event: 'payment' | 'payout';
  url: string;
  payload: Record<string, unknown>;
  /** `dropped`: a hostile sandbox chose never to send it. */
  state: 'pending' | 'delivered' | 'failed' | 'dropped';
  /** What a hostile sandbox did with it: held back (`late`), sent a second time (`copy`), or `dropped`. */
  hostile?: 'late' | 'copy' | 'dropped' | undefined;
  firstAttemptAt: number;
  nextAttemptAt?: number | undefined;
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
  threeDSecure?: boolean | undefined;
  recurring?: boolean | undefined;
  allowMultiCurrencyPurchase?: boolean | undefined;
  pageUrlKey?: string | undefined;
  description?: string | undefined;
  destinationCountry?: string | undefined;
  pax?: number | undefined;
  transactionDay?: string | undefined;
  /** Prepared transfer to affiliates; `fromReference` is the transfer's own reference. */
  transfer?: { fromReference: string; toMerchants: TransferItem[]; executed?: boolean } | undefined;
}

export interface Txn {
  id: number;
  reference: string;
  merchantReference: string;
  kind: Kind;
  status: Status;
  amount: number;
  currency: string;
  displayCurrency?: string | undefined;
  createdAt: number;
  updatedAt: number;
  merchantId: number;
  source?: string | undefined;
  message?: string | undefined;
  authorized: number;
  settled: number;
  /** Refunded plus pending refunds, so a pending refund cannot be refunded twice. */
  refunded: number;
  autoExecute?: boolean | undefined;
  card?: CardRecord | undefined;
  consumer?: Consumer | undefined;
  hosted?: HostedInfo | undefined;
  threeDS?: ThreeDSState | undefined;
  webhooks?: Delivery[] | undefined;
  /** Refunds: the payment refunded; transfers: the payment they came from. */
  parent?: string | undefined;
  pending?: boolean | undefined;
  suspended?: boolean | undefined;
  transferDate?: number | undefined;
  /** Transfers: the merchant the funds come from (an outgoing, negative row in its payout). */
  fromMerchantId?: number | undefined;
  /** Transfers: the sender's payout that carried the outgoing row. */
  outgoingSettlement?: { id: number; date: number; amount: number } | undefined;
  recurring?: boolean | undefined;
  subscriptionRef?: string | undefined;
  paymentMethod: 'CC' | 'EFT' | 'TRANSFER';
  settlement?: { id: number; date: number; amount: number } | undefined;
}

export interface Subscription {
  reference: string;
  interval: 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
  trialDays: number;
  firstname?: string | undefined;
  lastname?: string | undefined;
  email?: string | undefined;
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
