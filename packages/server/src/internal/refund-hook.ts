import type { CheckoutLogger } from '../logger.js';
import type { RefundEvent } from '../options.js';

/**
 * Hands a completed refund to the merchant's hook, here directly: the one place to swap for
 * at-least-once delivery once hooks have an outbox. A hook that throws is logged; the refund stands.
 */
export async function deliverRefund(
  event: RefundEvent,
  deps: {
    onRefundCompleted?: ((event: RefundEvent) => void | Promise<void>) | undefined;
    logger?: CheckoutLogger | undefined;
  },
): Promise<void> {
  if (!deps.onRefundCompleted) return;
  try {
    await deps.onRefundCompleted(event);
  } catch (error) {
    deps.logger?.error('onRefundCompleted threw; the refund stands', {
      merchantReference: event.merchantReference,
      error,
    });
  }
}
