import {
  base64url,
  constantTimeEqual,
  fromBase64url,
  fromUtf8,
  macKey,
  utf8,
} from '../runtime/crypto.js';

/**
 * Stateless proofs handed to the browser. Both are HMACs under a server-only key, so they verify
 * with no store read: they survive a store that lost everything and work on every instance.
 * Asynchronous, because Web Crypto is.
 */
export interface Secrets {
  /**
   * The secret a browser sends (`X-PG-Client-Secret`) to read or drive the payment `reference`,
   * made by the attempt `merchantReference`: it carries that attempt, so the payment's order can
   * be found with no store.
   */
  clientSecret(reference: string, merchantReference: string): Promise<string>;
  /** The attempt's merchant reference when `given` is the client secret of `reference` (constant time). */
  ownsPayment(reference: string, given: unknown): Promise<string | undefined>;
  /** The `:session` of an attempt's 3-D Secure URLs: its merchant reference and expiry, signed. */
  sessionToken(merchantReference: string): Promise<string>;
  /** The merchant reference a session token was made for, or `undefined` when it is not ours or expired. */
  merchantReferenceOf(token: string): Promise<string | undefined>;
  /** The token of the no-script card form for the browser whose form cookie is `browser`; good for `ttlMs`. */
  formToken(browser: string, ttlMs: number): Promise<string>;
  /** Whether `token` is an unexpired form token made for `browser` (constant time). */
  formTokenFits(browser: string, token: unknown): Promise<boolean>;
}

const CLIENT_LABEL = 'pg-checkout/client-secret/v1\0';
const SESSION_LABEL = 'pg-checkout/3ds/v1\0';
const FORM_LABEL = 'pg-checkout/form/v1\0';
const DERIVE_LABEL = 'pg-checkout/session-key/v1';

const textOf = (encoded: string) => fromUtf8(fromBase64url(encoded));

/**
 * `sessionSecret` is used as given; a gateway or webhook secret is never used directly as an HMAC
 * key for browser-facing values, only through a derivation with its own label.
 */
export function createSecrets(source: {
  sessionSecret?: string | undefined;
  derivedFrom?: string | undefined;
  /** How long a 3-D Secure session token is good for. */
  sessionTtlMs: number;
  now?: (() => number) | undefined;
}): Secrets {
  const now = source.now ?? Date.now;
  const key = source.sessionSecret
    ? Promise.resolve(macKey(utf8(source.sessionSecret)))
    : macKey(utf8(source.derivedFrom ?? ''))
        .bytes(DERIVE_LABEL)
        .then((derived) => macKey(derived));
  const mac = async (label: string, value: string) => (await key).base64url(`${label}${value}`);
  return {
    async clientSecret(reference, merchantReference) {
      const attempt = base64url(utf8(merchantReference));
      return `${attempt}.${await mac(CLIENT_LABEL, `${reference}\0${attempt}`)}`;
    },
    async ownsPayment(reference, given) {
      if (typeof given !== 'string' || given.length > 200) return undefined;
      const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(given);
      if (
        !match ||
        !constantTimeEqual(await mac(CLIENT_LABEL, `${reference}\0${match[1]}`), match[2]!)
      )
        return undefined;
      return textOf(match[1]!);
    },
    async sessionToken(merchantReference) {
      const body = `${base64url(utf8(merchantReference))}.${(now() + source.sessionTtlMs).toString(36)}`;
      return `${body}.${await mac(SESSION_LABEL, body)}`;
    },
    async merchantReferenceOf(token) {
      if (typeof token !== 'string' || token.length > 240) return undefined;
      const match = /^([A-Za-z0-9_-]+)\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (
        !match ||
        !constantTimeEqual(await mac(SESSION_LABEL, `${match[1]}.${match[2]}`), match[3]!)
      )
        return undefined;
      if (parseInt(match[2]!, 36) < now()) return undefined;
      return textOf(match[1]!);
    },
    async formToken(browser, ttlMs) {
      const expiry = (now() + ttlMs).toString(36);
      return `${expiry}.${await mac(FORM_LABEL, `${browser}\0${expiry}`)}`;
    },
    async formTokenFits(browser, token) {
      if (typeof token !== 'string' || token.length > 80) return false;
      const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match || parseInt(match[1]!, 36) < now()) return false;
      return constantTimeEqual(await mac(FORM_LABEL, `${browser}\0${match[1]}`), match[2]!);
    },
  };
}
