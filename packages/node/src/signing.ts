import { createHmac } from 'node:crypto';
import { InvalidRequestError } from './errors.js';

/**
 * The gateway's request signature: HMAC-SHA256 over the absolute URL, plus for a POST a newline and the
 * body exactly as sent, trimmed; lower-case hex (64 characters).
 */
export function signRequest(url: string, body: string | undefined, secret: string): string {
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) {
    throw new TypeError(
      'signRequest needs the absolute request URL (scheme, host, port, path, query)',
    );
  }
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError('signRequest needs the merchant secret');
  }
  const data = (body === undefined ? url : `${url}\n${body}`).trim();
  return createHmac('sha256', secret).update(data, 'utf8').digest('hex');
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
