import { maskPan } from '@pg-checkout/protocol';

export { maskPan };

// Runs of 12-19 digits, optionally split by spaces or dashes: what may be a card number, masked
// when it passes the Luhn check (a card number always does; most order numbers do not).
const PAN_LIKE = /\b(?:\d[ -]?){11,18}\d\b/g;

/** Whether a digit string passes the Luhn check (the check digit of every card number). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1 && (d *= 2) > 9) d -= 9;
    sum += d;
  }
  return sum % 10 === 0;
}
const PAN_KEYS = /^(number|cardnumber|card_number|pan|accountnumber)$/i;
const SECRET_KEYS =
  /^(cvv|cvc|cvv2|cvc2|csc|securitycode|security_code|secret|password|x-signature|authorization)$/i;

/** Masks anything in free text that looks like a card number. */
export function redactText(text: string): string {
  return text.replace(PAN_LIKE, (match) => {
    const digits = match.replace(/[ -]/g, '');
    return luhnValid(digits) ? maskPan(match) : match;
  });
}

/** A deep copy with card numbers masked and CVVs and secrets removed, safe to log. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) {
    return { name: value.name, message: redactText(value.message) };
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (SECRET_KEYS.test(key)) out[key] = '[redacted]';
    else if (PAN_KEYS.test(key) && (typeof item === 'string' || typeof item === 'number'))
      out[key] = maskPan(String(item));
    else out[key] = redact(item, depth + 1);
  }
  return out;
}
