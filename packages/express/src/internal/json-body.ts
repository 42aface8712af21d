import type { Request, RequestHandler } from 'express';
import { CheckoutError } from '@pg-checkout/server';
import { readLimited } from './limited-body.js';

const invalidJson = () =>
  new CheckoutError(400, 'invalid_json', 'The request body is not valid JSON.');

function mediaType(header: string): { essence: string; charset?: string } {
  const [essence = '', ...params] = header.split(';');
  let charset: string | undefined;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq > 0 && param.slice(0, eq).trim().toLowerCase() === 'charset')
      charset = param
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '')
        .toLowerCase();
  }
  return { essence: essence.trim().toLowerCase(), ...(charset ? { charset } : {}) };
}

/**
 * Reads an `application/json` body of at most `limit` bytes into `req.body`: objects and arrays
 * only, UTF-8, not compressed (browsers never compress what they post). What the components send is
 * small and always this, so this does in one pass what a general body parser does in several.
 * A body another parser already read is left as it is; a body of another content type is 415.
 */
/**
 * A JSON body the merchant's app read as text or bytes (`express.text()`, `express.raw()`) is parsed
 * here; an object (`express.json()`) is used as it is. Returns the error to pass on, if any.
 */
function preRead(req: Request): CheckoutError | undefined {
  const body: unknown = req.body;
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return undefined;
  if (mediaType(req.headers['content-type'] ?? '').essence !== 'application/json')
    return new CheckoutError(
      415,
      'unsupported_media_type',
      'Send the request body as application/json.',
    );
  try {
    const parsed: unknown = JSON.parse(body.toString());
    if (typeof parsed !== 'object' || parsed === null) return invalidJson();
    req.body = parsed;
    return undefined;
  } catch {
    return invalidJson();
  }
}

export function jsonBody(limit: number): RequestHandler {
  return (req, res, next) => {
    const holder = req as Request & { _body?: boolean };
    const type = req.headers['content-type'];
    // Already read by a parser of the merchant's app: body-parser 1 marks `_body`, 2 leaves the stream ended.
    if (holder._body || req.readableEnded || !type) return next(preRead(req));
    const { essence, charset } = mediaType(type);
    if (essence !== 'application/json')
      return next(
        new CheckoutError(
          415,
          'unsupported_media_type',
          'Send the request body as application/json.',
        ),
      );
    if (charset && charset !== 'utf-8' && charset !== 'utf8')
      return next(
        new CheckoutError(
          415,
          'unsupported_media_type',
          'The request body charset is not supported.',
        ),
      );
    const encoding = req.headers['content-encoding'];
    if (encoding && encoding.toLowerCase() !== 'identity')
      return next(
        new CheckoutError(
          415,
          'unsupported_media_type',
          'The request body encoding is not supported.',
        ),
      );
    readLimited(req, res, limit, (error, body) => {
      if (error) return next(error);
      const text = body!.toString('utf8');
      const first = /\S/.exec(text)?.[0];
      if (first === undefined) {
        req.body = {};
      } else {
        // Strict, as the components only ever send an object: a bare string or number is refused.
        if (first !== '{' && first !== '[') return next(invalidJson());
        try {
          req.body = JSON.parse(text) as unknown;
        } catch {
          return next(invalidJson());
        }
      }
      holder._body = true;
      next();
    });
  };
}
