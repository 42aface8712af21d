import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Stateless proofs handed to the browser. Both are HMACs under a server-only key, so they verify
 * with no store read: they survive a store that lost everything and work on every instance.
 */
export interface Secrets {
  /**
   * The secret a browser sends (`X-PG-Client-Secret`) to read or drive the payment `reference`,
   * made by the attempt `merchantReference`: it carries that attempt, so the payment's order can
   * be found with no store.
   */
  clientSecret(reference: string, merchantReference: string): string;
  /** The attempt's merchant reference when `given` is the client secret of `reference` (constant time). */
  ownsPayment(reference: string, given: unknown): string | undefined;
  /** The `:session` of an attempt's 3-D Secure URLs: its merchant reference and expiry, signed. */
  sessionToken(merchantReference: string): string;
  /** The merchant reference a session token was made for, or `undefined` when it is not ours or expired. */
  merchantReferenceOf(token: string): string | undefined;
}

const CLIENT_LABEL = 'pg-checkout/client-secret/v1\0';
const SESSION_LABEL = 'pg-checkout/3ds/v1\0';
const DERIVE_LABEL = 'pg-checkout/session-key/v1';

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

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
    ? Buffer.from(source.sessionSecret, 'utf8')
    : createHmac('sha256', source.derivedFrom ?? '')
        .update(DERIVE_LABEL)
        .digest();
  const mac = (label: string, value: string) =>
    createHmac('sha256', key).update(label).update(value).digest('base64url');
  return {
    clientSecret: (reference, merchantReference) => {
      const attempt = Buffer.from(merchantReference, 'utf8').toString('base64url');
      return `${attempt}.${mac(CLIENT_LABEL, `${reference}\0${attempt}`)}`;
    },
    ownsPayment(reference, given) {
      if (typeof given !== 'string' || given.length > 200) return undefined;
      const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(given);
      if (!match || !equal(mac(CLIENT_LABEL, `${reference}\0${match[1]}`), match[2]!))
        return undefined;
      return Buffer.from(match[1]!, 'base64url').toString('utf8');
    },
    sessionToken(merchantReference) {
      const body = `${Buffer.from(merchantReference, 'utf8').toString('base64url')}.${(now() + source.sessionTtlMs).toString(36)}`;
      return `${body}.${mac(SESSION_LABEL, body)}`;
    },
    merchantReferenceOf(token) {
      if (typeof token !== 'string' || token.length > 240) return undefined;
      const match = /^([A-Za-z0-9_-]+)\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match || !equal(mac(SESSION_LABEL, `${match[1]}.${match[2]}`), match[3]!))
        return undefined;
      if (parseInt(match[2]!, 36) < now()) return undefined;
      return Buffer.from(match[1]!, 'base64url').toString('utf8');
    },
  };
}
