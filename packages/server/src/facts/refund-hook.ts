import type { CheckoutLogger } from '../logger.js';
import type { RefundEvent } from '../options.js';

/** Where the refund use case hands its refunds: completed ones to the hook, pending ones to wait. */
export interface RefundHand {
  completed(event: RefundEvent): Promise<void>;
  pending(event: RefundEvent): Promise<void>;
}

/**
 * The plain function's hand (no store, so no outbox): the hook is called directly, once; a throw is
 * logged and the refund stands. A pending refund is left to the caller (its webhook or a new call).
 */
export function directHand(deps: {
  onRefundCompleted?: ((event: RefundEvent) => void | Promise<void>) | undefined;
  logger?: CheckoutLogger | undefined;
}): RefundHand {
  return {
    async completed(event) {
      if (!deps.onRefundCompleted) return;
      try {
        await deps.onRefundCompleted(event);
      } catch (error) {
        deps.logger?.error('onRefundCompleted threw; the refund stands', {
          merchantReference: event.merchantReference,
          error,
        });
      }
    },
    pending: async () => undefined,
  };
}
