/**
 * The browser's and the middleware's types of one wire format (docs/contracts.md, Browser API), kept
 * apart so the components' bundle never reaches into the server package. `npm run typecheck` compiles
 * this file: it fails as soon as the middleware could answer something the components' types do not
 * describe, or a 3-D Secure action the components would not recognise.
 */
import type {
  OrderStatus as BrowserOrderStatus,
  PaymentState as BrowserPaymentState,
  ThreeDSAction as BrowserThreeDSAction,
} from '@pg-checkout/elements';
import type {
  OrderStatusAnswer,
  PaymentState as ServerPaymentState,
  ThreeDSAction,
} from '@pg-checkout/express';

type Assert<T extends true> = T;
/** The middleware's answer to the browser that created the payment (its `OwnedPaymentState`). */
type ServerAnswer = ServerPaymentState & { clientSecret?: string };
type Is<A, B> = [A] extends [B] ? true : false;

/** Every answer the middleware sends (with the create answer's secret) is a state the browser types. */
export type ServerStatesFit = Assert<Is<ServerAnswer, BrowserPaymentState>>;
/** Every 3-D Secure action the middleware hands out is one the components handle, and back. */
export type ActionsFit = Assert<Is<ThreeDSAction, BrowserThreeDSAction>>;
export type ActionsMatch = Assert<Is<BrowserThreeDSAction, ThreeDSAction>>;
/** And no state the browser handles is one the middleware never sends (a dead branch in the components). */
export type BrowserStatesFit = Assert<Is<BrowserPaymentState, ServerAnswer>>;
/** `GET {mount}/order`: every answer the middleware sends is one the drop-in handles, and back. */
export type OrderFits = Assert<Is<OrderStatusAnswer, BrowserOrderStatus>>;
export type OrderMatches = Assert<
  Is<Omit<BrowserOrderStatus, 'retryAfter'>['status'], OrderStatusAnswer['status']>
>;
