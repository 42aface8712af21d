import type { Request, RequestHandler, Response } from 'express';
import { CheckoutError } from '@pg-checkout/server';

export const tooLarge = (message = 'The request body is too large.') =>
  new CheckoutError(413, 'payload_too_large', message);

export const unsupported = (what: 'charset' | 'encoding') =>
  new CheckoutError(415, 'unsupported_media_type', `The request body ${what} is not supported.`);

/** Read already by a parser of the merchant's app: body-parser 1 marks `_body`, 2 leaves the stream ended. */
export const alreadyRead = (req: Request) =>
  Boolean((req as Request & { _body?: boolean })._body) || req.readableEnded;

/**
 * Reads the body, at most `limit` bytes. A body declared larger is refused before a byte is read;
 * one that grows past the limit (chunked) is refused at that byte. Either way reading stops and
 * the connection closes after the 413, so a stranger cannot make the shop read (or wait for) more.
 */
export function readLimited(
  req: Request,
  res: Response,
  limit: number,
  done: (error: CheckoutError | undefined, body?: Buffer) => void,
): void {
  const refuse = () => {
    res.setHeader('Connection', 'close');
    done(tooLarge());
  };
  if (Number(req.headers['content-length']) > limit) return refuse();
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;
  const finish = (error?: CheckoutError) => {
    if (finished) return;
    finished = true;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
    req.off('aborted', onError);
    if (error === undefined) return done(undefined, Buffer.concat(chunks, received));
    req.pause();
    if (error.status === 413) return refuse();
    done(error);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > limit) return finish(tooLarge());
    chunks.push(chunk);
  };
  const onEnd = () => finish();
  const onError = () =>
    finish(new CheckoutError(400, 'invalid_request', 'The request was aborted.'));
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('aborted', onError);
}

/** `identity` or none: a gateway's webhook and a bank's form post are never compressed. */
const compressed = (req: Request) => {
  const encoding = req.headers['content-encoding'];
  return Boolean(encoding && encoding.toLowerCase() !== 'identity');
};

/** Any body as raw bytes in `req.body` (webhooks: their hashes cover the exact bytes). */
export function rawBody(limit: number): RequestHandler {
  return (req, res, next) => {
    if (alreadyRead(req)) return next();
    if (compressed(req)) return next(unsupported('encoding'));
    readLimited(req, res, limit, (error, body) => {
      if (error) return next(error);
      req.body = body;
      (req as Request & { _body?: boolean })._body = true;
      next();
    });
  };
}

const FORM_CHARSETS: Record<string, BufferEncoding> = {
  'utf-8': 'utf8',
  utf8: 'utf8',
  'iso-8859-1': 'latin1',
};

/** An `application/x-www-form-urlencoded` body (a bank's post) as an object of at most `fields` fields. */
export function formBody(limit: number, fields: number): RequestHandler {
  return (req, res, next) => {
    if (alreadyRead(req)) return next();
    const [essence = '', ...params] = (req.headers['content-type'] ?? '').split(';');
    if (essence.trim().toLowerCase() !== 'application/x-www-form-urlencoded') return next();
    const charset = params
      .map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(p)?.[1]?.toLowerCase())
      .find(Boolean);
    const encoding = FORM_CHARSETS[charset ?? 'utf-8'];
    if (!encoding) return next(unsupported('charset'));
    if (compressed(req)) return next(unsupported('encoding'));
    readLimited(req, res, limit, (error, body) => {
      if (error) return next(error);
      const form = new URLSearchParams(body!.toString(encoding));
      if ([...form.keys()].length > fields)
        return next(tooLarge('The request has too many parameters.'));
      req.body = Object.fromEntries(form);
      (req as Request & { _body?: boolean })._body = true;
      next();
    });
  };
}
