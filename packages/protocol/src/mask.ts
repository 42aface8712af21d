/** Masks a card number to first six, X for the middle, last four (`411111XXXXXX1111`). */
export function maskPan(number: string): string {
  const digits = String(number).replace(/[\s-]/g, '');
  if (digits.length < 11) return 'X'.repeat(digits.length);
  return digits.slice(0, 6) + 'X'.repeat(digits.length - 10) + digits.slice(-4);
}

const PAN_KEYS = new Set(['number', 'cardNumber', 'pan']);
const SECRET_KEYS = new Set(['cvv', 'cvc', 'cvv2']);
// Any run of 12-19 digits (optionally spaced) in free text could be a card number.
const PAN_IN_TEXT = /(?<![A-Za-z0-9_][-.:])\b\d(?:[ -]?\d){11,18}\b/g;
// A cvv inside JSON text that could not be parsed (a truncated body, say).
const CVV_IN_JSON = /"(cvv|cvc|cvv2)"\s*:\s*"?\d{0,4}"?/g;

/**
 * Masks card numbers inside free text (error messages, raw bodies). A digit run joined to a word by
 * `-`, `.` or `:` (`dup-1795431234562678`, `order.4111…`) is part of a reference, not a card
 * number typed by a shopper, and stays readable; every free-standing run of card length is masked,
 * Luhn-valid or not (a mistyped number is still almost the shopper's card).
 */
export function maskText(text: string): string {
  return text
    .replace(PAN_IN_TEXT, (m) => maskPan(m))
    .replace(CVV_IN_JSON, (_m, key: string) => `"${key}":"***"`);
}

/**
 * Deep copy of a value with card numbers masked and CVVs replaced, safe for errors, logs and snapshots.
 * Strings anywhere are scanned for digit runs that look like card numbers.
 */
export function maskCardData(value: unknown, depth = 0): unknown {
  if (depth > 32) return '[depth limit]';
  if (typeof value === 'string') return maskText(value);
  if (Array.isArray(value)) return value.map((v) => maskCardData(v, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (SECRET_KEYS.has(key) && v !== null && v !== undefined) out[key] = '***';
      else if (PAN_KEYS.has(key) && (typeof v === 'string' || typeof v === 'number'))
        out[key] = maskPan(String(v));
      else out[key] = maskCardData(v, depth + 1);
    }
    return out;
  }
  return value;
}
