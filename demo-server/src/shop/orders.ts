import type { Database, Queryable } from '../platform/database/db.js';
import { formatAmount } from '../platform/html.js';
import { randomId } from '../platform/ids.js';

/** The demo's one product: the server owns the price, the browser only picks a quantity. */
export const PRODUCT = {
  sku: 'karoo-1kg',
  name: 'Karoo single-origin beans, 1 kg',
  unitAmount: 14_900,
} as const;
export const MAX_QUANTITY = 3;
export const CURRENCY = 'ZAR';

/** One line of an order's cart. */
export interface CartLine {
  sku: string;
  name: string;
  unitAmount: number;
  quantity: number;
}

/** `changed`: charged, but not the order's total at the time; the shop refunds or collects the rest. */
export type ShopOrderStatus = 'open' | 'paid' | 'changed' | 'refunded';

export interface Order {
  /** 128 random bits: 32 hex digits in dashed groups of 8 (ids.ts). */
  id: string;
  /** What the gateway sees: `order-<id>`; attempt n is `order-<id>-n`. */
  reference: string;
  lines: CartLine[];
  total: number;
  currency: string;
  status: ShopOrderStatus;
  /** What the gateway charged, once it did (set with status `paid` or `changed`, kept when `refunded`). */
  paid?: { reference: string; amount: number; currency: string; at: Date };
  createdAt: Date;
  updatedAt: Date;
}

/** A gateway payment of an order, as the shop last heard of it. */
export interface OrderPayment {
  reference: string;
  orderId: string;
  merchantReference: string;
  amount: number;
  currency: string;
  status: 'paid' | 'failed' | 'pending' | 'refunded';
  /** The gateway's own status word, when a lookup or webhook told it (AUTHORIZED, CANCELLED…). */
  gatewayStatus?: string;
}

export const cartLines = (quantity: number): CartLine[] => [
  { sku: PRODUCT.sku, name: PRODUCT.name, unitAmount: PRODUCT.unitAmount, quantity },
];
export const cartTotal = (lines: readonly CartLine[]): number =>
  lines.reduce((sum, l) => sum + l.unitAmount * l.quantity, 0);

export const orderReference = (id: string): string => `order-${id}`;

/** Exchange rate for the "other currency" option, which pays in USD on the hosted page. */
const ZAR_PER_USD = 18.5;

/** What an order of `total` ZAR cents costs in a currency the shop takes; undefined for any other. */
export function amountIn(total: number, currency: string): number | undefined {
  if (currency === CURRENCY) return total;
  if (currency === 'USD') return Math.round(total / ZAR_PER_USD);
  return undefined;
}

/** How the back office words a `changed` order: what was charged against what the order comes to. */
export function chargedForOther(order: Order): string {
  const charged = order.paid ? formatAmount(order.paid.amount, order.paid.currency) : '?';
  return `charged ${charged} for ${formatAmount(order.total, order.currency)}: refund or collect the rest`;
}

const ORDER_REFERENCE = /^order-([0-9a-f]{8}(?:-[0-9a-f]{8}){3})$/;

/** The order id in an order reference (`order-<id>`); undefined for anything else. */
export function orderIdOf(reference: string): string | undefined {
  return ORDER_REFERENCE.exec(reference)?.[1];
}

/** The merchant reference of attempt n of an order, as the middleware numbers them. */
export const attemptReference = (order: Order, n: number): string => `${order.reference}-${n}`;

/** A lock per browser session, so two requests of one shopper never make two orders at once. */
const lockSession = (tx: Queryable, session: string) =>
  tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`demo-session:${session}`]);

interface OrderRow {
  id: string;
  lines: CartLine[] | string;
  total: number;
  currency: string;
  status: ShopOrderStatus;
  paid_reference: string | null;
  paid_amount: number | null;
  paid_currency: string | null;
  paid_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, lines, total, currency, status, paid_reference, paid_amount, paid_currency, paid_at, created_at, updated_at`;

function toOrder(row: OrderRow): Order {
  const lines = typeof row.lines === 'string' ? (JSON.parse(row.lines) as CartLine[]) : row.lines;
  return {
    id: row.id,
    reference: orderReference(row.id),
    lines,
    total: Number(row.total),
    currency: row.currency,
    status: row.status,
    ...(row.paid_reference
      ? {
          paid: {
            reference: row.paid_reference,
            amount: Number(row.paid_amount),
            currency: row.paid_currency ?? '',
            at: row.paid_at!,
          },
        }
      : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Whether two carts hold the same things at the same prices (jsonb does not keep key order). */
export const sameLines = (a: readonly CartLine[], b: readonly CartLine[]): boolean =>
  a.length === b.length &&
  a.every(
    (l, i) =>
      l.sku === b[i]!.sku && l.unitAmount === b[i]!.unitAmount && l.quantity === b[i]!.quantity,
  );

/** What marking an order paid did. */
export type PaidOutcome =
  | 'paid'
  /** Charged another amount or currency than the order's total at the time: not paid (`changed`). */
  | 'changed'
  /** The same payment said so before. */
  | 'already'
  /** Another payment had paid the order: this one is a second charge to refund. */
  | 'second-payment'
  | 'no-such-order';

/** The shop's orders and the payments the gateway made for them. */
export class OrderStore {
  constructor(private readonly db: Database) {}

  /** The browser session's latest order (open, or paid and so frozen), if it has one. */
  async current(session: string, on: Queryable = this.db): Promise<Order | undefined> {
    const [row] = await on.query<OrderRow>(
      `SELECT ${COLUMNS} FROM orders WHERE session = $1 ORDER BY created_at DESC LIMIT 1`,
      [session],
    );
    return row ? toOrder(row) : undefined;
  }

  async byId(id: string): Promise<Order | undefined> {
    const [row] = await this.db.query<OrderRow>(`SELECT ${COLUMNS} FROM orders WHERE id = $1`, [
      id,
    ]);
    return row ? toOrder(row) : undefined;
  }

  /** The order of an order reference (`order-<id>`), if the shop has it. */
  async byReference(reference: string): Promise<Order | undefined> {
    const id = orderIdOf(reference);
    return id ? this.byId(id) : undefined;
  }

  /** The order a gateway payment belongs to, by the shop's own record of that payment. */
  async byPayment(gatewayReference: string): Promise<Order | undefined> {
    const [row] = await this.db.query<OrderRow>(
      `SELECT ${COLUMNS.split(', ')
        .map((c) => `o.${c}`)
        .join(', ')} FROM payments p JOIN orders o ON o.id = p.order_id WHERE p.reference = $1`,
      [gatewayReference],
    );
    return row ? toOrder(row) : undefined;
  }

  private async insert(tx: Queryable, session: string, lines: CartLine[]): Promise<Order> {
    const [row] = await tx.query<OrderRow>(
      `INSERT INTO orders (id, session, lines, total, currency, created_at, updated_at)
       VALUES ($1, $2, $3::jsonb, $4, $5, clock_timestamp(), clock_timestamp())
       RETURNING ${COLUMNS}`,
      [randomId(), session, JSON.stringify(lines), cartTotal(lines), CURRENCY],
    );
    return toOrder(row!);
  }

  /**
   * Sets the session's cart. An open order takes the new lines; a paid order's cart is frozen, so
   * different lines start a new order (the same lines change nothing). Answers the order now current.
   */
  async setCart(session: string, lines: CartLine[]): Promise<{ order: Order; created: boolean }> {
    return this.db.transaction(async (tx) => {
      await lockSession(tx, session);
      const order = await this.current(session, tx);
      if (order && sameLines(order.lines, lines)) return { order, created: false };
      if (order?.status === 'open') {
        const [row] = await tx.query<OrderRow>(
          `UPDATE orders SET lines = $2::jsonb, total = $3, updated_at = clock_timestamp()
           WHERE id = $1 AND status = 'open' RETURNING ${COLUMNS}`,
          [order.id, JSON.stringify(lines), cartTotal(lines)],
        );
        return { order: toOrder(row!), created: false };
      }
      return { order: await this.insert(tx, session, lines), created: true };
    });
  }

  /**
   * The order the session pays: its current one, or a new one when it has none (made with `lines`)
   * or its current one was refunded (the same lines again: buying once more is a new order).
   */
  async ensure(session: string, lines: CartLine[]): Promise<{ order: Order; created: boolean }> {
    const existing = await this.current(session);
    if (existing && existing.status !== 'refunded') return { order: existing, created: false };
    return this.db.transaction(async (tx) => {
      await lockSession(tx, session);
      const order = await this.current(session, tx);
      if (order && order.status !== 'refunded') return { order, created: false };
      return { order: await this.insert(tx, session, order?.lines ?? lines), created: true };
    });
  }

  /**
   * Records what the gateway charged for the order. The order is paid only when the amount and
   * currency charged equal its total at this moment; otherwise it is `changed` (charged, to refund
   * or to collect the rest). The first payment that charged an order stays its payment; a later
   * one is reported as a second charge (to refund), never written over it.
   */
  async markPaid(
    orderId: string,
    charged: { reference: string; amount: number; currency: string },
  ): Promise<PaidOutcome> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<{
        status: ShopOrderStatus;
        paid_reference: string | null;
        total: number;
        currency: string;
      }>(`SELECT status, paid_reference, total, currency FROM orders WHERE id = $1 FOR UPDATE`, [
        orderId,
      ]);
      if (!row) return 'no-such-order';
      if (row.paid_reference) {
        return row.paid_reference === charged.reference ? 'already' : 'second-payment';
      }
      // The order's total at this moment, in the currency charged (the hosted page pays in USD).
      const matches =
        row.currency === CURRENCY &&
        amountIn(Number(row.total), charged.currency) === charged.amount;
      await tx.query(
        `UPDATE orders SET status = $5, paid_reference = $2, paid_amount = $3,
           paid_currency = $4, paid_at = clock_timestamp(), updated_at = clock_timestamp()
         WHERE id = $1`,
        [
          orderId,
          charged.reference,
          charged.amount,
          charged.currency,
          matches ? 'paid' : 'changed',
        ],
      );
      return matches ? 'paid' : 'changed';
    });
  }

  /** The order's payment was refunded in full (the gateway's record says REFUNDED). */
  async markRefunded(orderId: string, paymentReference: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE orders SET status = 'refunded', updated_at = clock_timestamp()
       WHERE id = $1 AND status IN ('paid', 'changed') AND paid_reference = $2 RETURNING id`,
      [orderId, paymentReference],
    );
    return rows.length > 0;
  }

  /**
   * Records a gateway payment of an order. The order a reference belongs to is set once; the
   * status only moves forward (pending to an outcome, paid to refunded).
   */
  async recordPayment(p: OrderPayment): Promise<void> {
    await this.db.query(
      `INSERT INTO payments (reference, order_id, merchant_reference, amount, currency, status, gateway_status)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (reference) DO UPDATE SET
         status = EXCLUDED.status,
         gateway_status = COALESCE(EXCLUDED.gateway_status, payments.gateway_status),
         updated_at = now()
       WHERE payments.status = 'pending'
          OR (payments.status = 'paid' AND EXCLUDED.status IN ('paid', 'refunded'))`,
      [
        p.reference,
        p.orderId,
        p.merchantReference,
        p.amount,
        p.currency,
        p.status,
        p.gatewayStatus ?? null,
      ],
    );
  }

  /** The payments the shop knows of for an order, by attempt. */
  async paymentsOf(orderId: string): Promise<OrderPayment[]> {
    const rows = await this.db.query<{
      reference: string;
      order_id: string;
      merchant_reference: string;
      amount: number;
      currency: string;
      status: OrderPayment['status'];
      gateway_status: string | null;
    }>(
      `SELECT reference, order_id, merchant_reference, amount, currency, status, gateway_status
       FROM payments WHERE order_id = $1 ORDER BY merchant_reference`,
      [orderId],
    );
    return rows.map((r) => ({
      reference: r.reference,
      orderId: r.order_id,
      merchantReference: r.merchant_reference,
      amount: Number(r.amount),
      currency: r.currency,
      status: r.status,
      ...(r.gateway_status ? { gatewayStatus: r.gateway_status } : {}),
    }));
  }

  /** The latest orders, newest first, and how many there are. */
  async recent(limit: number): Promise<{ orders: Order[]; count: number }> {
    const rows = await this.db.query<OrderRow>(
      `SELECT ${COLUMNS} FROM orders ORDER BY created_at DESC LIMIT $1`,
      [limit],
    );
    const [{ n }] = (await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM orders',
    )) as [{ n: number }];
    return { orders: rows.map(toOrder), count: Number(n) };
  }
}
