import type { NextFunction, Request, Response } from 'express';
import { maskText } from '@pg-checkout/protocol';
import { page } from '../html.js';

/** Body-parser and router errors a browser can cause, by their `type`, in words a person reads. */
const CLIENT_ERRORS: Record<string, { code: string; message: string }> = {
  'entity.parse.failed': { code: 'invalid_json', message: 'The request body is not valid JSON.' },
  'entity.too.large': { code: 'payload_too_large', message: 'The request body is too large.' },
  'parameters.too.many': { code: 'payload_too_large', message: 'The form has too many fields.' },
  'encoding.unsupported': {
    code: 'unsupported_media_type',
    message: 'The request body uses an encoding this shop does not read.',
  },
  'charset.unsupported': {
    code: 'unsupported_media_type',
    message: 'The request body uses a character set this shop does not read (send UTF-8).',
  },
  'request.aborted': { code: 'invalid_request', message: 'The request ended early.' },
  'request.size.invalid': {
    code: 'invalid_request',
    message: 'The request body does not match its Content-Length.',
  },
  'stream.encoding.set': { code: 'invalid_request', message: 'The request could not be read.' },
};

interface HttpishError {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  name?: unknown;
  message?: unknown;
}

/** The 4xx an error stands for, when a client caused it; undefined for the shop's own faults. */
function clientStatus(err: HttpishError): number | undefined {
  const status = Number(err.status ?? err.statusCode);
  return Number.isInteger(status) && status >= 400 && status < 500 ? status : undefined;
}

/**
 * The last handler: bad input answers its 4xx with a plain message (JSON under /api, a page
 * elsewhere), anything else a 500 page without details. Error messages are never logged or sent as
 * they are: a JSON parser's message quotes the body, and a body may hold a card number.
 */
export function errorHandler(log: (line: string) => void) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const e = (typeof err === 'object' && err !== null ? err : {}) as HttpishError;
    const status = clientStatus(e);
    const known = typeof e.type === 'string' ? CLIENT_ERRORS[e.type] : undefined;
    const where = `${req.method} ${maskText(req.path.slice(0, 80))}`;
    if (status) {
      log(`[shop] refused ${where}: ${status}${typeof e.type === 'string' ? ` ${e.type}` : ''}`);
    } else {
      // The stack's frames say where; its first line (the message) may quote the input.
      const frames =
        typeof (err as Error)?.stack === 'string'
          ? (err as Error)
              .stack!.split('\n')
              .slice(1, 4)
              .map((l) => l.trim())
              .join(' | ')
          : '';
      log(`[shop] ERROR ${where}: ${String(e.name ?? 'Error')} at ${maskText(frames)}`);
    }
    if (res.headersSent) return;
    const code = known?.code ?? (status ? 'invalid_request' : 'internal_error');
    const message =
      known?.message ??
      (status === 404
        ? 'Not found.'
        : status
          ? 'The request could not be read.'
          : 'Something went wrong on our side. Please try again.');
    res.status(status ?? 500);
    if (req.path.startsWith('/api/')) {
      res.json({ success: false, code, message });
      return;
    }
    res.type('html').send(
      page({
        title: status ? 'Bad request' : 'Error',
        body: `<h1>${status ? 'That request could not be handled' : 'Something went wrong'}</h1><p>${message}</p><p><a href="/">Back to the shop</a></p>`,
      }),
    );
  };
}
