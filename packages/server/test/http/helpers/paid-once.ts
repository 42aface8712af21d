import assert from 'node:assert/strict';
import { audit, payUnderLoad, type Audit } from '@pg-checkout/test-helpers/checkout-load';
import type { SandboxShop } from './sandbox-shop.js';

/** Shoppers paying across the shop's instances until `load.stop`, then every order audited at the gateway. */
export async function payAndAudit(
  shop: SandboxShop<unknown>,
  load: Parameters<typeof payUnderLoad>[1],
): Promise<Audit> {
  return audit(shop.apps, shop.sandbox.url, await payUnderLoad(shop.apps, load));
}

/**
 * The load paid more than `paid` orders, each charged at most once and told so: none charged but
 * told it failed, none charged twice, none told approved and never charged; with `settled`
 * (unless false), each charged order reads approved on a second look and a second submit charges
 * nothing. `answers`, when given, is every answer's `status code` label.
 */
export function assertPaidOnce(
  report: Audit,
  expected: { paid: number; answers?: RegExp; settled?: boolean },
): void {
  assert.ok(report.charged > expected.paid, `the load did pay: ${JSON.stringify(report)}`);
  assert.deepEqual(report.chargedButFailed, [], 'charged but told it failed');
  assert.deepEqual(report.doubled, [], 'charged twice');
  assert.deepEqual(report.approvedNotCharged, [], 'told approved, never charged');
  if (expected.settled !== false)
    assert.deepEqual(report.notSettled, [], 'not settled from the gateway once the store was back');
  if (expected.answers)
    for (const label of Object.keys(report.answers))
      assert.match(label, expected.answers, JSON.stringify(report.answers));
}
