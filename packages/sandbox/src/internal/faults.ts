import type { NextFunction, Request, Response } from 'express';
import { badRequest } from './errors.js';
import type { BodyReader } from './validate.js';

export type FaultKind = 'timeout' | 'reset' | '5xx' | 'malformed';
export const FAULT_KINDS: readonly FaultKind[] = ['timeout', 'reset', '5xx', 'malformed'];

export interface FaultOptions {
  /** Share of API requests that fail, 0..1. */
  rate: number;
  kinds: FaultKind[];
  /** Path prefixes to affect (`*` matches one path segment); all API paths when absent. */
  paths?: string[] | undefined;
  /** How long a `timeout` fault holds the answer before dropping the connection (default 35 s). */
  holdMs?: number | undefined;
}

export function readFaults(r: BodyReader): FaultOptions {
  const rate = r.raw.rate;
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1))
    throw badRequest('rate must be a number from 0 to 1');
  const kinds = r.raw.kinds ?? FAULT_KINDS;
  if (
    !Array.isArray(kinds) ||
    kinds.length === 0 ||
    !kinds.every((k) => FAULT_KINDS.includes(k as FaultKind))
  ) {
    throw badRequest(`kinds must be a non-empty array of ${FAULT_KINDS.join(', ')}`);
  }
  const paths = r.raw.paths ?? undefined;
  if (
    paths !== undefined &&
    (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string'))
  ) {
    throw badRequest('paths must be an array of path prefixes');
  }
  const holdMs = r.int('holdMs', { min: 0, max: 600_000 });
  return { rate, kinds: kinds as FaultKind[], paths: paths as string[] | undefined, holdMs };
}

function pathMatcher(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+');
  return new RegExp(`^${escaped}`);
}

/** Injects transport faults in front of the API so clients can prove nothing is lost or doubled. */
export class FaultInjector {
  private options: FaultOptions | undefined;
  private matchers: RegExp[] | undefined;
  private readonly held = new Set<ReturnType<typeof setTimeout>>();
  readonly counts: Record<FaultKind, number> = { timeout: 0, reset: 0, '5xx': 0, malformed: 0 };

  constructor(
    options: FaultOptions | undefined,
    private readonly random: () => number = Math.random,
  ) {
    this.configure(options);
  }

  configure(options: FaultOptions | undefined): void {
    this.options = options && options.rate > 0 ? options : undefined;
    this.matchers = options?.paths?.map(pathMatcher);
  }

  current(): FaultOptions | undefined {
    return this.options;
  }

  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const o = this.options;
      if (!o || this.random() >= o.rate) return next();
      const path = req.originalUrl.split('?')[0] ?? '';
      if (this.matchers && !this.matchers.some((m) => m.test(path))) return next();
      const kind = o.kinds[Math.floor(this.random() * o.kinds.length)] ?? o.kinds[0]!;
      this.counts[kind]++;
      if (kind === '5xx') {
        res.status(503).json({
          success: false,
          message: 'Service unavailable (sandbox fault injection)',
          code: -1,
        });
        return;
      }
      const send = res.send.bind(res);
      // Each fault lets the request be processed and only then corrupts the answer.
      res.json = (body: unknown) => {
        if (kind === 'malformed') {
          const text = JSON.stringify(body);
          res.type('application/json');
          return send(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
        }
        if (kind === 'reset') {
          req.socket.destroy();
          return res;
        }
        const timer = setTimeout(() => {
          this.held.delete(timer);
          req.socket.destroy();
        }, o.holdMs ?? 35_000);
        timer.unref();
        this.held.add(timer);
        return res;
      };
      next();
    };
  }

  close(): void {
    for (const t of this.held) clearTimeout(t);
    this.held.clear();
  }
}
