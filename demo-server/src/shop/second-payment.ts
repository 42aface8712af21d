import type { GatewayClient } from '@pg-checkout/node';
import type { OrderPayment, OrderStore } from './orders.js';

/** How a second charge of an already paid order stands: refunded, or on its way back. */
export type SecondPayment = {
  reference: string;
  amount: number;
  currency: string;
  refund: 'refunded' | 'refunding';
};

/** The refund's merchant reference: one per duplicate payment, so it is sent at most once. */
export const duplicateRefundReference = (payment: string): string => `refund-dup-${payment}`;

/**
 * Gives a second charge of a paid order back (a payment page left open in another tab, paid after
 * the order was paid another way). The refund is looked up by its merchant reference before anything
 * is sent, so a lost answer, a retry or another instance never refunds twice. Kept in this one
 * function until the core's own refund use case (issue 26) is there to call.
 */
export async function refundSecondPayment(
  client: GatewayClient,
  orders: OrderStore,
  payment: OrderPayment,
  log: (line: string) => void,
): Promise<SecondPayment> {
  const { reference, amount, currency } = payment;
  const merchantReference = duplicateRefundReference(reference);
  const answer = (refund: SecondPayment['refund']): SecondPayment => ({
    reference,
    amount,
    currency,
    refund,
  });
  if (payment.status === 'refunded') return answer('refunded');
  try {
    const found = await client.reconcile(merchantReference);
    if (found.found) return await settled(found.record.status === 'REFUNDED');
    const result = await client.payments.refund(reference, {
      reference: merchantReference,
      currency,
      amount,
    });
    log(`[shop] second payment ${reference} refunded (${merchantReference})`);
    return await settled(result.kind === 'refunded');
  } catch (err) {
    // Not refunded yet (the gateway unreachable, or not settled yet): asked again on the next look.
    log(
      `[shop] WARN second payment ${reference} not refunded yet: ${(err as Error).name}; the back office lists it`,
    );
    return answer('refunding');
  }

  async function settled(done: boolean): Promise<SecondPayment> {
    if (done)
      await orders.recordPayment({ ...payment, status: 'refunded', gatewayStatus: 'REFUNDED' });
    return answer(done ? 'refunded' : 'refunding');
  }
}
