/**
 * The reconciliation pass of the soak: every order's attempts looked up in the sandbox by
 * merchant reference, and each shopper's final answer checked against what was really charged.
 */
import type { GatewayClient } from '@pg-checkout/node';
import { pool } from '../bench/lib/pool.js';
import type { SoakCard } from './cards.js';

export interface Answer {
  http: number;
  body: { success?: boolean; status?: string; code?: string; reference?: string; message?: string };
}

export interface Order {
  card: SoakCard;
  first: Answer;
  final: Answer;
}

export interface Reconciliation {
  outcomes: Map<string, number>;
  violations: string[];
  attemptCount: number;
  /** Creates sent again with a merchant reference already sent (refused by the gateway as duplicates). */
  repeatedCount: number;
  transactionCount: number;
}

const CHARGED = new Set(['AUTHORIZED', 'SETTLED']);
// What the middleware may answer a card payment: 5xx only when the gateway failed.
const ALLOWED = new Map<number, Set<string>>([
  [200, new Set(['approved', 'authenticating'])],
  [402, new Set(['declined'])],
  [502, new Set(['failed'])],
  [504, new Set(['failed'])],
]);
// 503 with no state: the ledger could not be read back from the gateway, so nothing was sent.
const ALLOWED_503 = new Set(['gateway_unavailable']);

function describe(a: Answer): string {
  return `${a.http} ${a.body.status ?? '-'} ${a.body.code ?? ''}`.trim();
}

function outcomeOf(a: Answer): string {
  if (a.http === 200 && a.body.status === 'approved') return 'approved';
  if (a.http === 200 && a.body.status === 'authenticating') return 'authenticating';
  if (a.http === 402) return 'declined';
  return 'failed';
}

const LABEL: Record<string, string> = {
  approved: 'approved (charged once)',
  declined: 'declined (not charged)',
  authenticating: 'pending 3-D Secure authentication',
  failed: 'failed: gateway fault, not charged',
};

export async function reconcile(
  gateway: GatewayClient,
  orders: Map<string, Order>,
  attempts: Record<string, string[]>,
  concurrency: number,
): Promise<Reconciliation> {
  const violations: string[] = [];
  const outcomes = new Map<string, number>();
  let attemptCount = 0;
  let repeatedCount = 0;
  let transactionCount = 0;
  const entries = [...orders.entries()];
  await pool(concurrency, entries.length, async (i) => {
    const [order, o] = entries[i]!;
    for (const answer of [o.first, o.final]) {
      const allowed =
        ALLOWED.get(answer.http)?.has(answer.body.status ?? '') ||
        (answer.http === 503 && ALLOWED_503.has(answer.body.code ?? ''));
      if (!allowed) violations.push(`${order}: the middleware answered ${describe(answer)}`);
    }
    const sent = attempts[order] ?? [];
    attemptCount += sent.length;
    // A create whose outcome is unknown is sent again with the same merchant reference (attempt
    // `R-n`), so the gateway refuses it as a duplicate instead of charging twice: look each
    // reference up once, and count the refused repeats.
    const refs = [...new Set(sent)];
    repeatedCount += sent.length - refs.length;
    const found: { reference: string; status: string }[] = [];
    for (const ref of refs) {
      const result = await gateway.reconcile(ref);
      if (result.found) found.push(result.record);
    }
    transactionCount += found.length;
    const charged = found.filter((t) => CHARGED.has(t.status));
    if (charged.length > 1)
      violations.push(
        `${order}: charged ${charged.length} times (${charged.map((t) => t.reference).join(', ')}); ` +
          `first answer ${describe(o.first)} "${o.first.body.message ?? ''}", final ${describe(o.final)}`,
      );
    const outcome = outcomeOf(o.final);
    outcomes.set(LABEL[outcome]!, (outcomes.get(LABEL[outcome]!) ?? 0) + 1);
    if (outcome !== 'failed' && outcome !== o.card.expect)
      violations.push(`${order}: card expected ${o.card.expect}, ended ${describe(o.final)}`);
    if (o.first.http === 200 && outcomeOf(o.first) !== outcome)
      violations.push(`${order}: first answered ${describe(o.first)}, later ${describe(o.final)}`);
    if (outcome === 'approved' && charged.length <= 1) {
      if (charged.length !== 1 || charged[0]!.reference !== o.final.body.reference)
        violations.push(
          `${order}: approved as ${o.final.body.reference} but the sandbox charged ${charged.map((t) => t.reference).join(', ') || 'nothing'}`,
        );
    } else if (charged.length > 0) {
      violations.push(
        `${order}: the shopper was told ${describe(o.final)} "${o.final.body.message ?? ''}" but the sandbox charged ${charged[0]!.reference}`,
      );
    }
    if (outcome === 'authenticating' && !found.some((t) => t.status === 'THREE_D_SECURE'))
      violations.push(
        `${order}: pending authentication but no THREE_D_SECURE transaction in the sandbox`,
      );
  });
  return { outcomes, violations, attemptCount, repeatedCount, transactionCount };
}
