import { InvalidRequestError } from './errors.js';
import { hmacSha256Hex } from './internal/crypto.js';

/**
 * The gateway's request signature: HMAC-SHA256 over the absolute URL, plus for a POST a newline and the
 * body exactly as sent, trimmed; lower-case hex (64 characters). A promise, because Web Crypto is
 * asynchronous; a wrong argument throws at once.
 */
export function signRequest(
  url: string,
  body: string | undefined,
  secret: string,
): Promise<string> {
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) {
    throw new TypeError(
      'signRequest needs the absolute request URL (scheme, host, port, path, query)',
    );
  }
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError('signRequest needs the merchant secret');
  }
  const data = (body === undefined ? url : `${url}\n${body}`).trim();
  return hmacSha256Hex(secret, data);
}

/** Serializes a body once, compactly; this exact string is both signed and sent. */
export function serializeBody(body: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch (err) {
    throw new InvalidRequestError(`request body cannot be serialized: ${(err as Error).message}`, [
      { path: '', message: 'not serializable' },
    ]);
  }
  if (text === undefined)
    throw new InvalidRequestError('request body is not JSON-serializable', [
      { path: '', message: 'not serializable' },
    ]);
  return text;
}
