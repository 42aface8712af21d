import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Queryable } from '../platform/database/db.js';
import { cookieName, readCookie, setCookie } from '../platform/http/cookies.js';

const SESSION_COOKIE = 'demo_cart';
const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60_000;
const TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/**
 * The shopper's browser session: a cookie the shop signed (a random id and its HMAC), so a value
 * the shop never issued is no session at all and never reaches an order. Orders keep a hash of the
 * id, not the id. Making a session writes nothing: rows appear when the shopper acts.
 */
export class ShopperSessions {
  private constructor(private readonly key: Buffer) {}

  /** Loads the signing key from the database, making it on first start. */
  static async open(db: Queryable): Promise<ShopperSessions> {
    await db.query(
      `INSERT INTO shop_settings (name, value) VALUES ('session_key', $1) ON CONFLICT (name) DO NOTHING`,
      [randomBytes(32).toString('base64url')],
    );
    const [row] = await db.query<{ value: string }>(
      `SELECT value FROM shop_settings WHERE name = 'session_key'`,
    );
    return new ShopperSessions(Buffer.from(row!.value, 'base64url'));
  }

  private mac(id: string): Buffer {
    return createHmac('sha256', this.key).update(`demo-session/v1\0${id}`).digest();
  }

  /** The session of the request (a hash of its id), when it carries a cookie this shop signed. */
  of(req: Request): string | undefined {
    const match = TOKEN.exec(readCookie(req, cookieName(req, SESSION_COOKIE)) ?? '');
    if (!match) return undefined;
    const given = Buffer.from(match[2]!, 'base64url');
    const expected = this.mac(match[1]!);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return createHash('sha256').update(match[1]!).digest('hex');
  }

  /** The request's session, or a new one whose cookie goes out with the response. */
  ensure(req: Request, res: Response): string {
    const known = this.of(req);
    if (known) return known;
    const cached = (res.locals as { newSession?: string }).newSession;
    if (cached) return cached;
    const id = randomBytes(16).toString('base64url');
    setCookie(req, res, SESSION_COOKIE, `${id}.${this.mac(id).toString('base64url')}`, {
      path: '/',
      sameSite: 'lax',
      // A shopper who paid and comes back next week still finds the order paid.
      maxAge: SESSION_MAX_AGE_MS,
    });
    const session = createHash('sha256').update(id).digest('hex');
    (res.locals as { newSession?: string }).newSession = session;
    return session;
  }
}
