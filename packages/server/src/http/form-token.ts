import { base64url, randomBytes } from '../runtime/crypto.js';
import type { Context } from '../setup/context.js';

/** The cookie that names the browser a no-script form token was made for, and the form's field. */
export const FORM_COOKIE = 'pg_form';
export const FORM_FIELD = 'pg_form';
/** How long a rendered form may wait for its post. */
const FORM_TOKEN_TTL_MS = 2 * 60 * 60_000;

/** What the merchant's page puts in its server-rendered form (`<pg-checkout form-token>`). */
export interface FormToken {
  /** Where the form posts: `{publicUrl}/form/pay`. */
  action: string;
  /** The hidden field's name. */
  field: typeof FORM_FIELD;
  token: string;
  /** A `Set-Cookie` value for the answer of the page, when the browser has no form cookie yet. */
  setCookie?: string;
}

/** The form cookie's value in a `Cookie` header, when it is one we could have made. */
export function formBrowserOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === FORM_COOKIE && value && /^[A-Za-z0-9_-]{22}$/.test(value)) return value;
  }
  return undefined;
}

/**
 * The form token for the browser of `cookieHeader`, and its form cookie when it has none yet: the
 * token verifies only with that cookie, so a token copied into another browser is refused.
 */
export async function formToken(
  ctx: Context,
  cookieHeader: string | undefined,
): Promise<FormToken> {
  const known = formBrowserOf(cookieHeader);
  const browser = known ?? base64url(randomBytes(16));
  const url = new URL(ctx.publicUrl);
  const answer: FormToken = {
    action: `${ctx.publicUrl}/form/pay`,
    field: FORM_FIELD,
    token: await ctx.secrets.formToken(browser, FORM_TOKEN_TTL_MS),
  };
  if (!known)
    answer.setCookie = [
      `${FORM_COOKIE}=${browser}`,
      `Path=${url.pathname || '/'}`,
      'HttpOnly',
      'SameSite=Lax',
      ...(url.protocol === 'https:' ? ['Secure'] : []),
    ].join('; ');
  return answer;
}
