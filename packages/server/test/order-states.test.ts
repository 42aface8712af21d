import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ATTEMPT_TRANSITIONS,
  matchesCharge,
  nextStatus,
  observed,
  orderStatusOf,
  type AttemptEvent,
  type AttemptStatus,
} from '../src/order/states.js';

const STATES = ['absent', 'unknown', 'open', 'failed', 'paid'] as const;
const EVENTS: AttemptEvent[] = [
  'sent',
  'created',
  'charged',
  'refused',
  'superseded',
  'never_created',
];

// Every (state, event) pair: what the core may do. `x`: a bug, refused. `-`: leaves the ledger.
const EXPECTED: Record<(typeof STATES)[number], string> = {
  //        sent     created  charged  refused  superseded never_created
  absent: ' unknown  x        x        x        x          x',
  unknown: 'x        open     paid     failed   x          -',
  open: '   x        open     paid     failed   failed     x',
  failed: ' x        x        x        x        x          x',
  paid: '   x        x        x        x        x          x',
};

describe('the attempt state machine', () => {
  for (const from of STATES) {
    const row = EXPECTED[from].trim().split(/\s+/);
    EVENTS.forEach((event, i) => {
      const want = row[i]!;
      it(`${from} --${event}--> ${want}`, () => {
        if (want === 'x') {
          assert.equal(ATTEMPT_TRANSITIONS[from][event], undefined);
          assert.throws(() => nextStatus(from, event), /cannot move/);
        } else assert.equal(nextStatus(from, event), want === '-' ? null : want);
      });
    });
  }

  it('a paid or failed attempt never moves by our own hand: only the gateway’s lookup moves it', () => {
    for (const final of ['paid', 'failed'] as const)
      assert.deepEqual(ATTEMPT_TRANSITIONS[final], {});
    assert.equal(observed('REFUNDED'), 'failed', 'a refund frees the order for a new payment');
    assert.equal(observed('AUTHORIZED'), 'paid');
    assert.equal(observed('SETTLED'), 'paid');
    assert.equal(observed('THREE_D_SECURE'), 'open');
    assert.equal(observed('NEW'), 'open');
    for (const status of ['FAILED', 'DECLINED', 'REVERSED', 'EXPIRED', 'SOMETHING_NEW'])
      assert.equal(observed(status), 'failed');
  });
});

describe('the order, from its attempts', () => {
  const cases: [AttemptStatus[], string][] = [
    [[], 'open'],
    [['failed'], 'open'],
    [['failed', 'failed'], 'open'],
    [['open'], 'in_progress'],
    [['failed', 'open'], 'in_progress'],
    [['unknown'], 'checking'],
    [['open', 'unknown'], 'checking'],
    [['unknown', 'open'], 'checking'],
    [['paid'], 'paid'],
    [['unknown', 'paid'], 'paid'],
    [['open', 'failed', 'paid'], 'paid'],
  ];
  for (const [attempts, status] of cases)
    it(`[${attempts.join(', ')}] is ${status}`, () =>
      assert.equal(orderStatusOf(attempts), status));

  it('approved means the charge matches the order’s amount and currency', () => {
    assert.equal(
      matchesCharge({ amount: 100, currency: 'ZAR' }, { amount: 100, currency: 'ZAR' }),
      true,
    );
    assert.equal(
      matchesCharge({ amount: 100, currency: 'ZAR' }, { amount: 300, currency: 'ZAR' }),
      false,
    );
    assert.equal(
      matchesCharge({ amount: 100, currency: 'ZAR' }, { amount: 100, currency: 'USD' }),
      false,
    );
  });
});
