import { describe, it } from 'node:test';
import { PaymentNotificationSchema, PayoutWebhookSchema } from '../src/index.js';
import { failsAt, passes } from './support.js';

const notification = {
  success: true,
  amount: 10000,
  currency: 'ZAR',
  paymentReference: 'PG-1',
  merchantReference: 'order-1',
  paymentDate: '2026-11-23 09:00:00',
  status: 'SETTLED',
  date: '2026-11-23T09:00:00.000Z',
  hash: '0123456789abcdef0123456789abcdef',
  bin: '411111XXXXXX1111',
};

describe('webhook payloads', () => {
  it('parses the payment notification and refuses a bad hash or amount', () => {
    passes(PaymentNotificationSchema, notification);
    passes(PaymentNotificationSchema, { ...notification, status: 'NEW', bin: '' });
    failsAt(PaymentNotificationSchema, { ...notification, hash: 'xyz' }, 'hash', /MD5/);
    failsAt(PaymentNotificationSchema, { ...notification, amount: '100' }, 'amount', /number/);
  });
  it('parses the payout webhook', () => {
    const payout = {
      payoutDate: '2026-11-23 09:00:00',
      totalAmount: 10000,
      totalFees: 250,
      netTotal: 9750,
      payoutId: 77,
      currency: 'ZAR',
      hash: '0123456789abcdef0123456789abcdef',
      merchantName: 'Shop',
      merchantId: 1,
      channelId: 3,
      transactions: [
        {
          merchantReference: 'o-1',
          amount: 10000,
          fees: 250,
          feesVat: 288,
          netAmount: 9712,
          currency: 'ZAR',
          paymentReference: 'PG-1',
          status: 'SETTLED',
          consumerEmail: null,
          consumerFirstname: null,
          consumerSurname: null,
          threeDomainSecure: 'USED',
          dateCreated: '2026-11-20 10:00:00',
          dateExecuted: '2026-11-20 10:00:01',
          paymentMethod: 'CC',
        },
      ],
    };
    passes(PayoutWebhookSchema, payout);
    failsAt(PayoutWebhookSchema, { ...payout, payoutId: '77' }, 'payoutId', /number/);
  });
});
