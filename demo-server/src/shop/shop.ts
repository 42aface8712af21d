import type { Request } from 'express';
import type { Database } from '../platform/database/db.js';
import { networkOf, WindowLimit } from '../platform/http/limits.js';
import { OrderStore } from './orders.js';
import { ShopperSessions } from './sessions.js';

/** What every part of the shop works with: its orders, its shoppers' sessions and its limits. */
export interface Shop {
  orders: OrderStore;
  sessions: ShopperSessions;
  /** The shopper's session: the signed cookie, or the one this response is about to set. */
  sessionOf(req: Request): string | undefined;
  /** Takes one of the new orders the client's network may start this minute; false when none is left. */
  mayStartOrder(req: Request): boolean;
  /** Result-page requests that may ask the gateway, per network and overall. */
  resultLookups: WindowLimit;
}

/**
 * Opens the shop on its database. Orders an anonymous client may start per minute (its network, and
 * everyone together): rows appear only when a shopper acts, and never faster than this.
 * RATE_LIMIT_PER_IP raises it.
 */
export async function openShop(
  db: Database,
  rateLimitPerIp: number | false | undefined,
): Promise<Shop> {
  const orders = new OrderStore(db);
  const sessions = await ShopperSessions.open(db);
  const orderLimit = rateLimitPerIp === false ? Infinity : Math.max(30, rateLimitPerIp ?? 30);
  const newOrders = new WindowLimit({
    windowMs: 60_000,
    perKey: orderLimit,
    global: orderLimit * 20,
  });
  return {
    orders,
    sessions,
    sessionOf: (req) =>
      sessions.of(req) ?? (req.res?.locals as { newSession?: string } | undefined)?.newSession,
    mayStartOrder: (req) => newOrders.take(networkOf(req.ip ?? req.socket.remoteAddress)).ok,
    resultLookups: new WindowLimit({ windowMs: 60_000, perKey: 60, global: 600 }),
  };
}
