import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { clearCookie, cookieName, readCookie, setCookie } from '../platform/http/cookies.js';
import { page } from '../platform/html.js';
import { networkOf } from '../platform/http/limits.js';

/** One signed-in back-office browser. */
export interface AdminSession {
  /** The synchronizer token every state-changing form of this session carries. */
  csrf: string;
  expiresAt: number;
  /** A one-time message for the next page (what the last action did). */
  notice?: string | undefined;
}

export const SESSION_COOKIE = 'demo_admin';
const SESSION_TTL_MS = 8 * 60 * 60_000;
const MAX_SESSIONS = 1_000;
/**
 * Wrong passwords allowed per client network (an IPv4 address, an IPv6 /64) per window, then every
 * attempt from it waits out the window.
 */
export const MAX_FAILURES = 5;
/**
 * Wrong passwords allowed from all networks together per window: past it every sign-in waits, so
 * many networks guess no faster than a few would, and the failure table never outgrows it (nothing
 * is evicted to make room, so nobody clears a lockout by flooding the table).
 */
export const MAX_FAILURES_OVERALL = 100;
const FAILURE_WINDOW_MS = 15 * 60_000;

const sameBytes = (a: string, b: string): boolean => {
  // HMAC both sides so lengths match and the comparison takes the same time whatever the input.
  const key = randomBytes(32);
  const mac = (v: string) => createHmac('sha256', key).update(v, 'utf8').digest();
  return timingSafeEqual(mac(a), mac(b));
};

function loginPage(message?: string): string {
  return page({
    title: 'Sign in',
    body: `<h1>Back office: sign in</h1>
${message ? `<p role="alert" class="notice">${message}</p>` : ''}
<form method="post" action="/admin/login" class="login">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button>Sign in</button>
</form>
<p>The password is <code>ADMIN_PASSWORD</code>, or the one <code>npm start</code> printed beside the back office's address.</p>`,
  });
}

function refuse(res: Response, status: number, title: string, text: string): void {
  res
    .status(status)
    .type('html')
    .send(
      page({
        title,
        body: `<h1>${title}</h1><p role="alert">${text}</p><p><a href="/admin">Back office</a></p>`,
      }),
    );
}

/** The signed-in back-office browsers, by their cookie's id: a bounded number, the oldest goes first. */
class AdminSessions {
  private readonly byId = new Map<string, AdminSession>();

  /** The request's session, unless it has none, an unknown one or one that ran out. */
  of(req: Request): AdminSession | undefined {
    const id = readCookie(req, cookieName(req, SESSION_COOKIE));
    if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const session = this.byId.get(id);
    if (session && session.expiresAt <= Date.now()) {
      this.byId.delete(id);
      return undefined;
    }
    return session;
  }

  /** A new session, its cookie sent with the response. */
  open(req: Request, res: Response): void {
    const id = randomBytes(32).toString('base64url');
    this.byId.set(id, {
      csrf: randomBytes(32).toString('base64url'),
      expiresAt: Date.now() + SESSION_TTL_MS,
    });
    // A demo keeps a bounded number of sessions; the oldest goes first.
    if (this.byId.size > MAX_SESSIONS) this.byId.delete(this.byId.keys().next().value!);
    setCookie(req, res, SESSION_COOKIE, id, {
      sameSite: 'strict',
      path: '/admin',
      maxAge: SESSION_TTL_MS,
    });
  }

  /** Signs the request's browser out: its session forgotten, its cookie cleared. */
  close(req: Request, res: Response): void {
    const id = readCookie(req, cookieName(req, SESSION_COOKIE));
    if (id) this.byId.delete(id);
    clearCookie(req, res, SESSION_COOKIE, '/admin');
  }
}

/** Wrong passwords per client network and from all networks together, in a fixed window. */
class WrongPasswords {
  private readonly byNetwork = new Map<string, { count: number; since: number }>();
  private overall = { count: 0, since: 0 };

  /** How long sign-ins from `address` must wait (ms); 0 when they may try now. */
  lockedFor(address: string): number {
    const left = this.overall.since + FAILURE_WINDOW_MS - Date.now();
    if (left > 0 && this.overall.count >= MAX_FAILURES_OVERALL) return left;
    const entry = this.byNetwork.get(address);
    if (!entry) return 0;
    const waited = entry.since + FAILURE_WINDOW_MS - Date.now();
    if (waited <= 0) {
      this.byNetwork.delete(address);
      return 0;
    }
    return entry.count >= MAX_FAILURES ? waited : 0;
  }

  record(address: string): void {
    const now = Date.now();
    if (this.overall.since + FAILURE_WINDOW_MS <= now) {
      // A new window: entries of the last one have all run out.
      this.overall = { count: 0, since: now };
      for (const [key, entry] of this.byNetwork)
        if (entry.since + FAILURE_WINDOW_MS <= now) this.byNetwork.delete(key);
    }
    this.overall.count += 1;
    const entry = this.byNetwork.get(address);
    if (entry && entry.since + FAILURE_WINDOW_MS > now) entry.count += 1;
    else this.byNetwork.set(address, { count: 1, since: now });
  }

  /** The right password came: the network starts over. */
  forget(address: string): void {
    this.byNetwork.delete(address);
  }
}

const form = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 20 });

/**
 * The back office's door: a password sign-in (slowed to a stop after repeated wrong passwords from
 * one network), an HttpOnly SameSite=Strict session cookie (`__Host-`, Secure, over https), a CSRF
 * token checked on every state-changing post, and `Cache-Control: no-store` on every answer.
 */
export function adminAuth(password: string) {
  const sessions = new AdminSessions();
  return {
    routes: signInRoutes(password, sessions, new WrongPasswords()),
    requireSession: requireSession(sessions),
    requireCsrf: requireCsrf(sessions),
  };
}

/** Sign-in, mounted before the guarded routes. */
function signInRoutes(password: string, sessions: AdminSessions, wrong: WrongPasswords): Router {
  const routes: Router = express.Router();
  // Nothing of the back office is kept by the browser or a proxy: not its pages, not its answers.
  routes.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  routes.get('/login', (req, res) => {
    if (sessions.of(req)) return res.redirect(303, '/admin');
    res.type('html').send(loginPage());
  });

  routes.post('/login', form, (req, res) => {
    // A cross-site form must not sign this browser in to someone else's session either.
    if (req.get('sec-fetch-site') === 'cross-site') {
      refuse(res, 403, 'Sign in here', 'Sign in from the back office page itself.');
      return;
    }
    // Counted per network: one host holds a whole IPv6 /64 and could take a new address per guess.
    const address = networkOf(req.ip ?? req.socket.remoteAddress);
    const wait = wrong.lockedFor(address);
    if (wait > 0) {
      res.setHeader('Retry-After', String(Math.ceil(wait / 1000)));
      refuse(
        res,
        429,
        'Too many attempts',
        'Too many wrong passwords from this network. Wait a few minutes and try again.',
      );
      return;
    }
    const given = (req.body as Record<string, unknown> | undefined)?.password;
    if (typeof given !== 'string' || !sameBytes(given, password)) {
      wrong.record(address);
      res.status(401).type('html').send(loginPage('That password is not right.'));
      return;
    }
    wrong.forget(address);
    sessions.open(req, res);
    res.redirect(303, '/admin');
  });
  return routes;
}

/** Lets only signed-in browsers through; pages go to the sign-in form, posts are refused. */
function requireSession(sessions: AdminSessions) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const session = sessions.of(req);
    if (session) {
      res.locals.adminSession = session;
      return next();
    }
    if (req.method === 'GET' || req.method === 'HEAD') return res.redirect(303, '/admin/login');
    refuse(res, 403, 'Sign in first', 'Sign in to the back office first; nothing was changed.');
  };
}

/**
 * Every state-changing post: a form body (415 otherwise) carrying this session's token (403
 * otherwise, and nothing changes). Sign-out is one such post.
 */
function requireCsrf(sessions: AdminSessions): Router {
  const guard: Router = express.Router();
  guard.use(form, (req, res, next) => {
    if (req.method !== 'POST') return next();
    if (!req.is('application/x-www-form-urlencoded')) {
      refuse(
        res,
        415,
        'Send the form',
        'The back office takes its own forms (application/x-www-form-urlencoded) only; nothing was changed.',
      );
      return;
    }
    const session = res.locals.adminSession as AdminSession;
    const token = (req.body as Record<string, unknown> | undefined)?._csrf;
    if (typeof token !== 'string' || !sameBytes(token, session.csrf)) {
      refuse(
        res,
        403,
        'Form expired',
        'This form is not from your back-office session. Reload the back office and try again; nothing was changed.',
      );
      return;
    }
    next();
  });

  guard.post('/logout', (req, res) => {
    sessions.close(req, res);
    res.redirect(303, '/admin/login');
  });
  return guard;
}
