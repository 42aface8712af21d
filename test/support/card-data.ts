import assert from 'node:assert/strict';

/**
 * Fails when any log line holds a full card number that was used, or a CVV next to its key.
 * Masked numbers (first 6, X..., last 4) are fine.
 */
export function assertNoCardData(lines: readonly string[], cardNumbers: readonly string[]): void {
  const leaks: string[] = [];
  for (const line of lines) {
    for (const number of cardNumbers) {
      if (line.includes(number)) leaks.push(`card ${number.slice(0, 6)}…: ${line.slice(0, 200)}`);
    }
    // A 13-19 digit run with a card prefix that passes Luhn is a card number, used here or not.
    for (const run of line.match(/(?<!\d)[2-6]\d{12,18}(?!\d)/g) ?? []) {
      if (luhn(run)) leaks.push(`Luhn-valid digits ${run.slice(0, 6)}…: ${line.slice(0, 200)}`);
    }
    if (/\bcvv\b["']?\s*[:=]\s*["']?\d{3,4}/i.test(line)) leaks.push(`cvv: ${line.slice(0, 200)}`);
  }
  assert.deepEqual(leaks, [], `card data found in ${leaks.length} log line(s)`);
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
