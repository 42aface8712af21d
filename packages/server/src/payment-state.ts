// The Browser API's shapes are declared once, in the protocol package (docs/contracts.md).
export type {
  AmountChangedState,
  OwnedPaymentState,
  PaymentState,
  ThreeDSAction,
} from '@pg-checkout/protocol/browser';
