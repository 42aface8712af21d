/**
 * The hashes the core needs, on any runtime: Node's own crypto when the runtime offers it without an
 * import (`process.getBuiltinModule`: Node 20.16+, Bun, Deno), because a Web Crypto HMAC costs about 15
 * times as much CPU in Node; Web Crypto everywhere else (Cloudflare Workers without `nodejs_compat`).
 */

interface NodeHash {
  update(data: string, encoding: 'utf8'): NodeHash;
  digest(encoding: 'base64url' | 'base64' | 'hex'): string;
  digest(): Uint8Array;
}
interface NodeCrypto {
  createHmac(algorithm: 'sha256', key: Uint8Array): NodeHash;
  createHash(algorithm: 'sha256' | 'sha1'): NodeHash;
}

type Runtime = { process?: { getBuiltinModule?: (id: string) => unknown } };

/** Node's crypto module when the runtime has one, reached without an import; `undefined` elsewhere. */
export function builtinCrypto(): NodeCrypto | undefined {
  try {
    const found = (globalThis as Runtime).process?.getBuiltinModule?.('node:crypto');
    return typeof (found as NodeCrypto | undefined)?.createHmac === 'function'
      ? (found as NodeCrypto)
      : undefined;
  } catch {
    return undefined;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

// Two characters per 12 bits from a table: btoa works on a binary string and costs about 15 times
// as much in Node 20.
const pairs = (alphabet: string) =>
  Array.from({ length: 4096 }, (_, n) => alphabet[n >>> 6]! + alphabet[n & 63]!);
const STANDARD_PAIRS = pairs(STANDARD);
const URL_SAFE_PAIRS = pairs(URL_SAFE);

function encode(bytes: Uint8Array, table: string[], pad: boolean): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += table[n >>> 12]! + table[n & 4095]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) out += table[bytes[i]! << 4]! + (pad ? '==' : '');
  else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += table[n >>> 12]! + table[n & 4095]![0]! + (pad ? '=' : '');
  }
  return out;
}

/** Standard base64 of bytes, padded. */
export const base64 = (bytes: Uint8Array): string => encode(bytes, STANDARD_PAIRS, true);

/** URL-safe base64 without padding, as Node's `base64url`. */
export const base64url = (bytes: Uint8Array): string => encode(bytes, URL_SAFE_PAIRS, false);

const VALUES = new Map([...URL_SAFE].map((c, i) => [c, i]));

/** The bytes of URL-safe base64 without padding; throws on a character or length no encoder makes. */
export function fromBase64url(text: string): Uint8Array {
  if (text.length % 4 === 1) throw new TypeError('not base64url: a length no encoder makes');
  const out = new Uint8Array((text.length * 3) >>> 2);
  let bits = 0;
  let value = 0;
  let at = 0;
  for (const char of text) {
    const digit = VALUES.get(char);
    if (digit === undefined) throw new TypeError('not base64url: an unknown character');
    value = (value << 6) | digit;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (value >>> bits) & 0xff;
    }
  }
  return out;
}

export const utf8 = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text);
export const fromUtf8 = (bytes: Uint8Array): string => decoder.decode(bytes);

/** `n` random bytes from the runtime's CSPRNG. */
export function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

export type MacKey = {
  /** HMAC-SHA256 of the UTF-8 `data`, URL-safe base64 without padding. */
  base64url(data: string): Promise<string>;
  /** HMAC-SHA256 of the UTF-8 `data`, raw bytes. */
  bytes(data: string): Promise<Uint8Array<ArrayBuffer>>;
};

/** An HMAC-SHA256 key; under Web Crypto it is imported once, on first use. */
export function macKey(key: Uint8Array<ArrayBuffer>, native = builtinCrypto()): MacKey {
  if (native) {
    return {
      base64url: (data) =>
        Promise.resolve(native.createHmac('sha256', key).update(data, 'utf8').digest('base64url')),
      bytes: (data) =>
        Promise.resolve(
          new Uint8Array(native.createHmac('sha256', key).update(data, 'utf8').digest()),
        ),
    };
  }
  let imported: ReturnType<typeof crypto.subtle.importKey> | undefined;
  const sign = async (data: string) => {
    imported ??= crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    return new Uint8Array(await crypto.subtle.sign('HMAC', await imported, encoder.encode(data)));
  };
  return { base64url: async (data) => base64url(await sign(data)), bytes: sign };
}

/** SHA-256 of the UTF-8 `text`, standard base64 (a CSP source hash). */
export async function sha256Base64(text: string, native = builtinCrypto()): Promise<string> {
  if (native) return native.createHash('sha256').update(text, 'utf8').digest('base64');
  return base64(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));
}

/** SHA-256 of the UTF-8 `text`, lowercase hex. */
export async function sha256Hex(text: string, native = builtinCrypto()): Promise<string> {
  if (native) return native.createHash('sha256').update(text, 'utf8').digest('hex');
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Compares two strings in time that depends on their length only (both are MACs of public length). */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
