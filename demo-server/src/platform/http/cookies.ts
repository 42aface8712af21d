import type { Request, Response } from 'express';

/** The value of a cookie in the request, if sent once (a repeated name counts as not sent). */
export function readCookie(req: Request, name: string): string | undefined {
  let found: string | undefined;
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      if (found !== undefined) return undefined;
      found = part.slice(at + 1).trim();
    }
  }
  return found;
}

/**
 * A cookie's name for this request: over https (as `req.secure` says, which believes only trusted
 * proxies) it carries the `__Host-` prefix, so the browser keeps it only when it was set Secure,
 * for the whole host, by the host itself (no subdomain or plain-http page can plant one).
 */
export const cookieName = (req: Request, base: string): string =>
  req.secure ? `__Host-${base}` : base;

/** Sets a cookie under its name for this request; `__Host-` cookies are Secure with Path=/. */
export function setCookie(
  req: Request,
  res: Response,
  base: string,
  value: string,
  opts: { path: string; sameSite: 'lax' | 'strict'; maxAge?: number },
): void {
  res.cookie(cookieName(req, base), value, {
    httpOnly: true,
    sameSite: opts.sameSite,
    secure: req.secure,
    // __Host- requires Path=/; over plain http the narrower path stays.
    path: req.secure ? '/' : opts.path,
    ...(opts.maxAge === undefined ? {} : { maxAge: opts.maxAge }),
  });
}

export function clearCookie(req: Request, res: Response, base: string, path: string): void {
  res.clearCookie(cookieName(req, base), {
    httpOnly: true,
    secure: req.secure,
    path: req.secure ? '/' : path,
  });
}
