import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_CARDS, TRANSITIONS, testCards } from '../src/index.js';
import { SandboxClock } from '../src/internal/clock.js';
import {
  formatIsoMillis,
  formatTransactionDate,
  formatWebhookDate,
  maskPan,
  parseDay,
  parseIsoMillis,
} from '../src/internal/format.js';
import { canTransition } from '../src/internal/state-machine.js';
import { brandOf, luhnValid } from '../src/internal/test-cards.js';

describe('engine units', () => {
  it('test cards are Luhn-valid and branded as DESIGN.md says', () => {
    assert.equal(TEST_CARDS.length, 17);
    for (const card of TEST_CARDS) {
      assert.ok(luhnValid(card.number), card.number);
      assert.equal(brandOf(card.number), card.type, card.number);
    }
    assert.equal(luhnValid('4111111111111112'), false);
    assert.equal(brandOf('6011111111111117'), undefined);
    assert.ok(testCards.every((c) => typeof c.behaviour === 'string' && c.behaviour.length > 0));
  });

  it('the transition table allows the documented moves only', () => {
    assert.ok(canTransition('NEW', 'THREE_D_SECURE'));
    assert.ok(canTransition('AUTHORIZED', 'SETTLED'));
    assert.ok(canTransition('AUTHORIZED', 'REVERSED'));
    assert.ok(canTransition('SETTLED', 'REFUNDED'));
    assert.equal(canTransition('SETTLED', 'SETTLED'), false);
    assert.equal(canTransition('NEW', 'REVERSED'), false);
    for (const terminal of ['REFUNDED', 'FAILED', 'REVERSED', 'CANCELLED'] as const)
      assert.deepEqual(TRANSITIONS[terminal], []);
  });

  it('formats dates in UTC in the spec formats and masks card numbers', () => {
    const t = Date.UTC(2026, 0, 2, 3, 4, 5, 6);
    assert.equal(formatTransactionDate(t), '2026-01-02T03:04:05');
    assert.equal(formatIsoMillis(t), '2026-01-02T03:04:05.006Z');
    assert.equal(formatWebhookDate(t), '2026-01-02 03:04:05');
    assert.equal(parseIsoMillis('2026-01-02T03:04:05.006Z'), t);
    assert.equal(parseIsoMillis('2026-02-30T00:00:00.000Z'), undefined);
    assert.equal(parseDay('2026-13-01'), undefined);
    assert.equal(maskPan('4111111111111111'), '411111XXXXXX1111');
    assert.equal(maskPan('378282246310005'), '378282XXXXX0005');
  });

  it('the clock runs due tasks on advance, in time order, including tasks they schedule', async () => {
    const clock = new SandboxClock();
    const seen: string[] = [];
    const start = clock.now();
    clock.schedule(start + 2_000, () => seen.push('b'));
    clock.schedule(start + 1_000, () => {
      seen.push('a');
      clock.schedule(clock.now() + 500, () => seen.push('a2'));
    });
    clock.schedule(start + 10_000, () => seen.push('late'));
    await clock.advance(3_000);
    assert.deepEqual(seen, ['a', 'a2', 'b']);
    assert.equal(clock.pending(), 1);
    clock.close();
  });

  it('the clock fires on real time too', async () => {
    const clock = new SandboxClock();
    // The clock's own timer is unref'd so it never keeps a process alive; this one does, for the test.
    const keepAlive = setTimeout(() => {}, 5_000);
    const fired = new Promise<void>((resolve) => clock.schedule(clock.now() + 20, resolve));
    await fired;
    clearTimeout(keepAlive);
    clock.close();
  });
});
