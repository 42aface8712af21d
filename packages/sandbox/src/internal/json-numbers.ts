/**
 * Integer fields of the spec. JSON.parse reads `100.00` and `1e4` as the integers 100 and 10000, so
 * whether a number was written with a fraction or an exponent can only be seen in the raw text
 * (spec, Authentication: "a fractional part in cents fields (100.00) ... are ... wrong types").
 */
export const INTEGER_FIELDS: ReadonlySet<string> = new Set([
  'amount',
  'expiryMonth',
  'expiryYear',
  'merchantId',
  'affiliateMerchantId',
  'trialDays',
]);

interface Frame {
  array: boolean;
  key?: string | undefined;
  index: number;
}

const pathOf = (stack: readonly Frame[]): string =>
  stack.map((f, i) => (f.array ? `[${f.index}]` : `${i === 0 ? '' : '.'}${f.key ?? ''}`)).join('');

/**
 * Every integer field written as a non-integer literal in `text`, which must be valid JSON (it was
 * parsed already): `[{ path: 'transaction.amount', literal: '100.00' }]`. One pass, no allocation
 * unless a field is found.
 */
export function nonIntegerLiterals(
  text: string,
  fields: ReadonlySet<string> = INTEGER_FIELDS,
): { path: string; literal: string }[] {
  const found: { path: string; literal: string }[] = [];
  const stack: Frame[] = [];
  let expectKey = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i + 1;
      let escaped = false;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) {
          escaped = true;
          i += 2;
          continue;
        }
        if (d === 0x22) break;
        i++;
      }
      if (expectKey) {
        const rawKey = text.slice(start, i);
        stack[stack.length - 1]!.key = escaped ? (JSON.parse(`"${rawKey}"`) as string) : rawKey;
        expectKey = false;
      }
      i++;
      continue;
    }
    if (c === 0x7b /* { */) {
      stack.push({ array: false, index: 0 });
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      stack.push({ array: true, index: 0 });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.array) top.index++;
      else expectKey = true;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      while (i < n && /[-+0-9.eE]/.test(text[i]!)) i++;
      const literal = text.slice(start, i);
      const top = stack[stack.length - 1];
      if (
        top &&
        !top.array &&
        top.key !== undefined &&
        fields.has(top.key) &&
        /[.eE]/.test(literal)
      ) {
        found.push({ path: pathOf(stack), literal });
      }
      continue;
    }
    i++;
  }
  return found;
}
