import type { Database } from '../platform/database/db.js';
import { RANDOM_ID, randomId } from '../platform/ids.js';

/** A back-office form's idempotency key: 128 random bits, made when the form is drawn. */
export const newFormKey = (): string => randomId();
export const FORM_KEY = RANDOM_ID;

export type ActionState = 'sent' | 'done' | 'pending' | 'failed';

export interface BackOfficeAction {
  key: string;
  action: 'execute' | 'refund';
  paymentReference: string;
  amount?: number;
  currency?: string;
  state: ActionState;
  result?: string;
}

export type Begun =
  /** The first submit of this form. */
  | { first: true }
  /** The form was submitted before: what became of it. */
  | { first: false; earlier: BackOfficeAction }
  /** The key belongs to another request (another payment, action or amount): refused. */
  | { first: false; conflict: true };

/** Each back-office form submitted, by its key: what it asked and how it ended. */
export class BackOfficeActions {
  constructor(private readonly db: Database) {}

  /** Claims the form's key for this request, or answers what the earlier submit of it did. */
  async begin(request: Omit<BackOfficeAction, 'state' | 'result'>): Promise<Begun> {
    const inserted = await this.db.query(
      `INSERT INTO back_office_actions (key, action, payment_reference, amount, currency, state)
       VALUES ($1, $2, $3, $4, $5, 'sent') ON CONFLICT (key) DO NOTHING RETURNING key`,
      [
        request.key,
        request.action,
        request.paymentReference,
        request.amount ?? null,
        request.currency ?? null,
      ],
    );
    if (inserted.length > 0) return { first: true };
    const earlier = await this.find(request.key);
    if (
      !earlier ||
      earlier.action !== request.action ||
      earlier.paymentReference !== request.paymentReference ||
      earlier.amount !== request.amount
    )
      return { first: false, conflict: true };
    return { first: false, earlier };
  }

  /** What the form with this key asked and how it ended, if it was submitted before. */
  async find(key: string): Promise<BackOfficeAction | undefined> {
    const [row] = await this.db.query<{
      action: 'execute' | 'refund';
      payment_reference: string;
      amount: number | null;
      currency: string | null;
      state: ActionState;
      result: string | null;
    }>(
      `SELECT action, payment_reference, amount, currency, state, result FROM back_office_actions WHERE key = $1`,
      [key],
    );
    if (!row) return undefined;
    return {
      key,
      action: row.action,
      paymentReference: row.payment_reference,
      ...(row.amount === null ? {} : { amount: Number(row.amount) }),
      ...(row.currency === null ? {} : { currency: row.currency }),
      state: row.state,
      ...(row.result === null ? {} : { result: row.result }),
    };
  }

  /**
   * Records how the form's request ended. What the gateway did stays recorded: a repeat of the form
   * that the gateway refused never turns a done or pending request into a failed one.
   */
  async finish(key: string, state: ActionState, result?: string): Promise<void> {
    await this.db.query(
      `UPDATE back_office_actions SET state = $2, result = $3, updated_at = now()
       WHERE key = $1 AND (state IN ('sent', 'failed') OR $2 IN ('done', 'pending'))`,
      [key, state, result ?? null],
    );
  }

  /** Refund forms of these payments whose outcome is not known yet (sent, no answer): to look up. */
  async unsettledRefunds(paymentReferences: readonly string[]): Promise<BackOfficeAction[]> {
    if (paymentReferences.length === 0) return [];
    const rows = await this.db.query<{ key: string }>(
      `SELECT key FROM back_office_actions
       WHERE action = 'refund' AND state = 'sent' AND payment_reference = ANY($1::text[])
       ORDER BY created_at`,
      [paymentReferences],
    );
    const found = await Promise.all(rows.map((r) => this.find(r.key)));
    return found.filter((a): a is BackOfficeAction => a !== undefined);
  }

  /** Cents refunded (or being refunded) from this back office, per payment. */
  async refundedSoFar(paymentReferences: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (paymentReferences.length === 0) return out;
    const rows = await this.db.query<{ payment_reference: string; total: number }>(
      `SELECT payment_reference, sum(amount)::bigint AS total FROM back_office_actions
       WHERE action = 'refund' AND state IN ('done', 'pending') AND payment_reference = ANY($1::text[])
       GROUP BY payment_reference`,
      [paymentReferences],
    );
    for (const r of rows) out.set(r.payment_reference, Number(r.total));
    return out;
  }
}
