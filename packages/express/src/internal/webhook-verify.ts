import { createHash, timingSafeEqual } from 'node:crypto';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

function md5(text: string): Buffer {
  return createHash('md5').update(text, 'utf8').digest();
}

/** Parses a raw webhook body and checks its MD5 hash of `idField` + secret in constant time. */
export function verifyWebhook(
  rawBody: Buffer | string,
  secret: string,
  idField: 'paymentReference' | 'payoutId',
): Record<string, unknown> {
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : rawBody);
  } catch {
    throw new WebhookVerificationError(
      'webhook body is not JSON (are you passing the raw request body?)',
    );
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new WebhookVerificationError('webhook body is not a JSON object');
  }
  const record = payload as Record<string, unknown>;
  const id = record[idField];
  const hash = record.hash;
  if ((typeof id !== 'string' && typeof id !== 'number') || String(id).length === 0) {
    throw new WebhookVerificationError(`webhook has no ${idField}`);
  }
  if (typeof hash !== 'string' || !/^[0-9a-fA-F]{32}$/.test(hash))
    throw new WebhookVerificationError('webhook hash is missing or malformed');
  if (!timingSafeEqual(Buffer.from(hash.toLowerCase(), 'hex'), md5(String(id) + secret))) {
    throw new WebhookVerificationError('webhook hash does not match');
  }
  return record;
}
