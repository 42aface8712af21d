import type { Request, Response } from 'express';
import { GatewayConnectionError, GatewayTimeoutError } from '@pg-checkout/node';
import type { AdminSession } from './admin-auth.js';
import { FORM_KEY } from './actions.js';

/** A payment reference as the back office's URLs may carry it. */
export const REFERENCE = /^[A-Za-z0-9_.:-]{1,99}$/;

export const RELOAD =
  'This form is from an older page; nothing was sent. Reload the back office and try again.';

export const sessionOf = (res: Response) => res.locals.adminSession as AdminSession;

/** What an action did is shown once on the next page, kept in the session rather than the URL. */
export const back = (res: Response, notice: string) => {
  sessionOf(res).notice = notice;
  res.redirect(303, '/admin');
};

/** The form's idempotency key, when it carries one the back office could have drawn. */
export const formKey = (req: Request): string | undefined => {
  const key = (req.body as Record<string, unknown> | undefined)?.key;
  return typeof key === 'string' && FORM_KEY.test(key) ? key : undefined;
};

/** The gateway's answer may leave the outcome unknown: then the form may be sent again as it is. */
export const outcomeUnknown = (err: unknown) =>
  err instanceof GatewayTimeoutError || err instanceof GatewayConnectionError;
