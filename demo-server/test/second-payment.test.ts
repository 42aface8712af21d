import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { GatewayClient } from '@pg-checkout/node';
import type { OrderPayment, OrderStore } from '../src/shop/orders.js';
import { duplicateRefundReference, refundSecondPayment } from '../src/shop/second-payment.js';

// A second charge of a paid order goes back once: the refund is looked up by its merchant reference
// before anything is sent, so a retry, a reload of the result page or another instance never refunds twice.

const second: OrderPayment = {
  reference: 'SB77',
  orderId: 'o1',
  merchantReference: 'order-o1-1',
  amount: 14_900,
  currency: 'ZAR',
  status: 'paid',
};

function fakes(refunds: Map<string, { status: string }>, refundFails?: Error) {
  const sent: unknown[] = [];
  const recorded: OrderPayment[] = [];
  const client = {
    reconcile: async (merchantReference: string) => {
      const found = refunds.get(merchantReference);
      return found ? { found: true, record: found } : { found: false };
    },
    payments: {
      refund: async (reference: string, transaction: { reference: string }) => {
        sent.push({ payment: reference, ...transaction });
        if (refundFails) throw refundFails;
        refunds.set(transaction.reference, { status: 'REFUNDED' });
        return { kind: 'refunded' };
      },
    },
  } as unknown as GatewayClient;
  const orders = {
    recordPayment: async (p: OrderPayment) => void recorded.push(p),
  } as unknown as OrderStore;
  return { client, orders, sent, recorded };
}

describe('refundSecondPayment', () => {
  test('refunds the second charge in full, once, under refund-dup-<payment>', async () => {
    const refunds = new Map<string, { status: string }>();
    const t = fakes(refunds);
    const first = await refundSecondPayment(t.client, t.orders, second, () => {});
    assert.deepEqual(first, {
      reference: 'SB77',
      amount: 14_900,
      currency: 'ZAR',
      refund: 'refunded',
    });
    assert.deepEqual(t.sent, [
      { payment: 'SB77', reference: 'refund-dup-SB77', currency: 'ZAR', amount: 14_900 },
    ]);
    assert.equal(t.recorded[0]?.status, 'refunded');
    // Asked again (a reload, a webhook, another instance): found, never sent twice.
    const again = await refundSecondPayment(t.client, t.orders, second, () => {});
    assert.equal(again.refund, 'refunded');
    assert.equal(t.sent.length, 1);
  });

  test('a refund the gateway could not take stays "being refunded" and is tried on the next look', async () => {
    const refunds = new Map<string, { status: string }>();
    const failing = fakes(
      refunds,
      Object.assign(new Error('timeout'), { name: 'GatewayTimeoutError' }),
    );
    const lines: string[] = [];
    const first = await refundSecondPayment(failing.client, failing.orders, second, (l) =>
      lines.push(l),
    );
    assert.equal(first.refund, 'refunding');
    assert.match(lines.join('\n'), /not refunded yet/);
    assert.deepEqual(failing.recorded, []);
  });

  test('a manual refund (still pending at the gateway) is "being refunded", not sent again', async () => {
    const refunds = new Map([[duplicateRefundReference('SB77'), { status: 'NEW' }]]);
    const t = fakes(refunds);
    const result = await refundSecondPayment(t.client, t.orders, second, () => {});
    assert.equal(result.refund, 'refunding');
    assert.equal(t.sent.length, 0);
  });
});
