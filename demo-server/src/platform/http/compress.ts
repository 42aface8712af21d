/**
 * The shop's bytes on a slow link: pages, style sheets and scripts are sent brotli- or gzip-compressed
 * when the browser asks for it (`Accept-Encoding`), with `Vary: Accept-Encoding` so a cache keeps the
 * encodings apart. Static files are compressed once (at their best ratio) and kept in memory; pages are
 * compressed per answer at a quick setting. A merchant does the same on its own server or CDN.
 */
import { readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';

export type Encoding = 'br' | 'gzip' | 'identity';

/** Below this, compression costs more than the bytes it saves (one packet). */
const MIN_BYTES = 1_024;

const COMPRESSIBLE = /^(?:text\/|application\/(?:javascript|json)|image\/svg)/;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The best encoding the request accepts: br before gzip; an explicit `q=0` refuses one. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
}

function compress(body: Buffer, encoding: Exclude<Encoding, 'identity'>, best: boolean): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: best ? 11 : 5,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      })
    : gzipSync(body, { level: best ? 9 : 6 });
}

/**
 * Compresses what the app sends with `res.send` (the pages, the shop's JSON): a string or buffer body of
 * a compressible type and worth compressing. Streams (`sendFile`) pass as they are.
 */
export function compressSent() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      const type = String(res.getHeader('Content-Type') ?? '');
      res.vary('Accept-Encoding');
      const bytes =
        typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : undefined;
      const encoding = chooseEncoding(req.headers['accept-encoding']);
      if (
        !bytes ||
        encoding === 'identity' ||
        bytes.length < MIN_BYTES ||
        res.getHeader('Content-Encoding') ||
        !COMPRESSIBLE.test(type || 'text/html')
      )
        return send(body);
      if (!type) res.type(typeof body === 'string' ? 'html' : 'bin');
      res.setHeader('Content-Encoding', encoding);
      return send(compress(bytes, encoding, false));
    };
    next();
  };
}

interface Variants {
  mtimeMs: number;
  type: string;
  etag: string;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * Serves the files of `root` with each encoding made once (best ratio) and kept while the file is
 * unchanged. `immutable`: the names carry a content hash, so a year's cache and no revalidation;
 * otherwise `no-cache` with an ETag (the browser asks again and gets 304 while the file is the same).
 */
export function compressedStatic(root: string, { immutable }: { immutable: boolean }) {
  const cache = new Map<string, Variants>();
  const base = normalize(root + sep);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let path: string;
    try {
      path = normalize(join(root, decodeURIComponent(req.path)));
    } catch {
      return next();
    }
    const type = TYPES[extname(path)];
    if (!path.startsWith(base) || !type) return next();
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return next();
    }
    if (!stat.isFile()) return next();
    let entry = cache.get(path);
    if (!entry || entry.mtimeMs !== stat.mtimeMs) {
      const identity = readFileSync(path);
      entry = {
        mtimeMs: stat.mtimeMs,
        type,
        identity,
        etag: `"${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}"`,
      };
      cache.set(path, entry);
    }
    const encoding =
      entry.identity.length < MIN_BYTES
        ? 'identity'
        : chooseEncoding(req.headers['accept-encoding']);
    const body =
      encoding === 'identity'
        ? entry.identity
        : (entry[encoding] ??= compress(entry.identity, encoding, true));
    const etag = encoding === 'identity' ? entry.etag : entry.etag.replace(/"$/, `-${encoding}"`);
    res.setHeader('Content-Type', entry.type);
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader(
      'Cache-Control',
      immutable ? 'public, max-age=31536000, immutable' : 'public, no-cache',
    );
    res.setHeader('ETag', etag);
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Length', String(body.length));
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  };
}
