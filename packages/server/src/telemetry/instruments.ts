import type { Counter, Histogram, Meter, ObservableGauge } from '@opentelemetry/api';
import { METRICS } from './names.js';

export interface Instruments {
  attempts: Counter;
  ordersPaid: Counter;
  challengesStarted: Counter;
  challengesCompleted: Counter;
  gatewayDuration: Histogram;
  hookDeliveries: Counter;
  hooksWaiting: ObservableGauge;
  limitsHit: Counter;
  cardTesting: Counter;
}

/** The HTTP semantic conventions' duration buckets (seconds), and the client's 30 s timeout. */
const DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30,
];

/** Every instrument, created once per checkout; the server README lists what each means. */
export function createInstruments(meter: Meter): Instruments {
  return {
    attempts: meter.createCounter(METRICS.attempts, {
      description: 'Payment attempts that reached an outcome (approved, declined, failed, pending)',
      unit: '{attempt}',
    }),
    ordersPaid: meter.createCounter(METRICS.ordersPaid, {
      description: 'Orders paid: a payment the gateway approved for its order',
      unit: '{order}',
    }),
    challengesStarted: meter.createCounter(METRICS.challengesStarted, {
      description: '3-D Secure challenges shown to the shopper',
      unit: '{challenge}',
    }),
    challengesCompleted: meter.createCounter(METRICS.challengesCompleted, {
      description: '3-D Secure challenges that ended, by outcome',
      unit: '{challenge}',
    }),
    gatewayDuration: meter.createHistogram(METRICS.gatewayDuration, {
      description: 'Duration of the calls to the payment gateway, by operation',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    hookDeliveries: meter.createCounter(METRICS.hookDeliveries, {
      description: "Calls of the merchant's hooks, delivered or failed",
      unit: '{delivery}',
    }),
    hooksWaiting: meter.createObservableGauge(METRICS.hooksWaiting, {
      description: 'Hook deliveries waiting to be retried',
      unit: '{delivery}',
    }),
    limitsHit: meter.createCounter(METRICS.limitsHit, {
      description: 'Requests refused by a limit, by limit and scope',
      unit: '{request}',
    }),
    cardTesting: meter.createCounter(METRICS.cardTesting, {
      description:
        'Orders, shoppers or clients that reached their decline limit (suspected card testing)',
      unit: '{scope}',
    }),
  };
}
