/**
 * HMAC-SHA256 on any runtime. Node's own crypto when the runtime offers it without an import
 * (`process.getBuiltinModule`: Node 20.16+, Bun, Deno), because in Node a Web Crypto HMAC costs about
 * 15 times as much CPU; Web Crypto everywhere else (Cloudflare Workers without `nodejs_compat`).
 */

interface NodeHmac {
  update(data: string, encoding: 'utf8'): NodeHmac;
  digest(encoding: 'hex'): string;
}
interface NodeCrypto {
  createHmac(algorithm: 'sha256', key: string): NodeHmac;
}

type Runtime = { process?: { getBuiltinModule?: (id: string) => unknown } };

function nodeCrypto(): NodeCrypto | undefined {
  try {
    const found = (globalThis as Runtime).process?.getBuiltinModule?.('node:crypto');
    return typeof (found as NodeCrypto | undefined)?.createHmac === 'function'
      ? (found as NodeCrypto)
      : undefined;
  } catch {
    return undefined;
  }
}

const native = nodeCrypto();
const encoder = new TextEncoder();

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Lower-case hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]!];
  return out;
}

// Importing a key costs as much as a signature; a client signs with one secret (a few in tests).
type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;
const keys = new Map<string, Promise<HmacKey>>();
const MAX_KEYS = 16;

function hmacKey(secret: string): Promise<HmacKey> {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value!);
    key = crypto.subtle.importKey(
      'raw',
      encoder.encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    keys.set(secret, key);
  }
  return key;
}

/** HMAC-SHA256 through Web Crypto, lower-case hex; exported so tests can run this path on Node too. */
export async function webHmacSha256Hex(secret: string, data: string): Promise<string> {
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(data));
  return toHex(new Uint8Array(signature));
}

/** HMAC-SHA256 of UTF-8 `data` under the UTF-8 `secret`, lower-case hex. */
export function hmacSha256Hex(secret: string, data: string): Promise<string> {
  if (native)
    return Promise.resolve(native.createHmac('sha256', secret).update(data, 'utf8').digest('hex'));
  return webHmacSha256Hex(secret, data);
}

/** Compares two strings in time that depends on their length only (both are public-length hashes here). */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
