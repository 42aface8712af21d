import type { LitElement } from 'lit';
import type { CheckoutApi } from '../api/client.js';
import type { Messages } from '../i18n/localize.js';

// What a 3-D Secure flow (three-ds-flow.ts) and its challenge frame (challenge-frame.ts) take from the
// element and the API client: declared here, below both, so neither imports the other for its types.

/** What is posted into the challenge frame, and where the completion page may come from. */
export interface ChallengeRequest {
  acsUrl: string;
  fields: Record<string, string>;
  callbackOrigin?: string | undefined;
}

/** The element's properties the flow reads (`<pg-3ds-v2>` and `<pg-3ds-v1>` both have them). */
export interface ThreeDSHost extends LitElement {
  endpoint: string;
  challengeTimeout: number;
  pollInterval: number;
  locale: string;
  messages: Partial<Messages>;
}

/** The part of the API client a 3-D Secure flow calls. */
export type ThreeDSApi = Pick<
  CheckoutApi,
  'origin' | 'payment' | 'cancelPayment' | 'confirmMethodAt' | 'rememberSecret'
>;
