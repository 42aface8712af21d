/**
 * What the sandbox answers where the spec says "not shown": one field per behaviour a client could
 * come to rely on. The default profile keeps the sandbox's helpful answers; the strict profile answers
 * the least helpful way the spec allows, so a client that passes on it relies on nothing unwritten.
 */
export interface SandboxChoices {
  /**
   * A merchant reference used before, on v2 create, v3 create, redirect create, EFT create or a refund:
   * `'refuse'` answers fin094 naming the first transaction; `'new-transaction'` makes a new one, and
   * the lookup by merchant reference answers the latest.
   */
  duplicateReference: 'refuse' | 'new-transaction';
  /**
   * A refund of more than is left (pending manual refunds count): `'refuse'` answers fin058;
   * `'accept'` refunds it, also on a payment already REFUNDED.
   */
  overRefund: 'refuse' | 'accept';
  /**
   * List filters: `'spec'` matches consumer names and email as case-insensitive parts ("full or
   * partial") and status and paymentMethod case-insensitively; `'exact'` matches every filter exactly.
   */
  listMatch: 'spec' | 'exact';
  /** Order of the list's result: oldest first or newest first. */
  listOrder: 'oldest-first' | 'newest-first';
  /** Most matches the list answers (the most recent ones). */
  listLimit: number;
  /** Whether payments still NEW (a hosted page not yet paid, a pending EFT) appear in the list. */
  newInList: 'listed' | 'omitted';
  /**
   * How pending records read in lookups and lists: `'new'` shows a pending refund as NEW with
   * `pending: true` and a pending payment as NEW with `pending: true`; `'settled-negative'` shows a
   * pending refund as SETTLED with its negative amount and `pending: true`, and a pending payment as
   * NEW with `pending: false` (the spec ties `pending` to refunds only).
   */
  pendingRecords: 'new' | 'settled-negative';
  /**
   * Payment notifications: `'reliable'` sends each once and retries non-2xx answers; `'hostile'`
   * also sends some late (held until the sandbox clock passes them), some twice, some never, so
   * they arrive out of order. Drawn from the sandbox's `random` option, so a seeded run reproduces.
   */
  webhooks: 'reliable' | 'hostile';
  /**
   * Whose references a refund's notification carries: `'payment'` (the refunded payment's reference
   * and merchant reference, the refund's negative amount) or `'refund'` (the refund's own).
   */
  refundNotification: 'payment' | 'refund';
}

export type SandboxProfile = 'default' | 'strict';
export const PROFILES: readonly SandboxProfile[] = ['default', 'strict'];

export const PROFILE_CHOICES: Readonly<Record<SandboxProfile, Readonly<SandboxChoices>>> = {
  default: {
    duplicateReference: 'refuse',
    overRefund: 'refuse',
    listMatch: 'spec',
    listOrder: 'oldest-first',
    listLimit: 1000,
    newInList: 'listed',
    pendingRecords: 'new',
    webhooks: 'reliable',
    refundNotification: 'payment',
  },
  strict: {
    duplicateReference: 'new-transaction',
    overRefund: 'accept',
    listMatch: 'exact',
    listOrder: 'newest-first',
    listLimit: 100,
    newInList: 'omitted',
    pendingRecords: 'settled-negative',
    webhooks: 'hostile',
    refundNotification: 'refund',
  },
};

/** The values each enumerated choice takes; `listLimit` is a whole number from 1. */
const VALUES: { [K in keyof SandboxChoices]: readonly SandboxChoices[K][] | 'count' } = {
  duplicateReference: ['refuse', 'new-transaction'],
  overRefund: ['refuse', 'accept'],
  listMatch: ['spec', 'exact'],
  listOrder: ['oldest-first', 'newest-first'],
  listLimit: 'count',
  newInList: ['listed', 'omitted'],
  pendingRecords: ['new', 'settled-negative'],
  webhooks: ['reliable', 'hostile'],
  refundNotification: ['payment', 'refund'],
};

/** The profile's choices with the given ones over them; throws naming what is wrong. */
export function resolveChoices(
  profile: unknown = 'default',
  choices: unknown = {},
  where = 'createSandbox',
): SandboxChoices {
  if (!PROFILES.includes(profile as SandboxProfile))
    throw new TypeError(`${where}: \`profile\` must be 'default' or 'strict'`);
  if (typeof choices !== 'object' || choices === null || Array.isArray(choices))
    throw new TypeError(`${where}: \`choices\` must be an object`);
  const out: Record<string, unknown> = { ...PROFILE_CHOICES[profile as SandboxProfile] };
  for (const [key, value] of Object.entries(choices)) {
    if (value === undefined) continue;
    const allowed = (VALUES as Record<string, readonly unknown[] | 'count' | undefined>)[key];
    if (allowed === undefined)
      throw new TypeError(
        `${where}: unknown choice \`${key}\`; the choices are ${Object.keys(VALUES).join(', ')}`,
      );
    const ok =
      allowed === 'count'
        ? Number.isInteger(value) && (value as number) >= 1
        : allowed.includes(value);
    if (!ok)
      throw new TypeError(
        `${where}: choice \`${key}\` must be ${allowed === 'count' ? 'a whole number from 1' : allowed.map((v) => `'${String(v)}'`).join(' or ')}`,
      );
    out[key] = value;
  }
  return out as unknown as SandboxChoices;
}
