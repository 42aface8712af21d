import { badRequest } from './errors.js';

type Json = Record<string, unknown>;

const typeName = (v: unknown): string =>
  v === undefined
    ? 'an empty body'
    : Array.isArray(v)
      ? 'an array'
      : v === null
        ? 'null'
        : `a ${typeof v}`;

/**
 * Reads a JSON object leniently, the way a real server does: unknown keys are ignored and `null`
 * counts as absent, but wrong types and broken limits are refused with the field's path.
 */
export class BodyReader {
  constructor(
    readonly raw: Json,
    private readonly path = '',
  ) {}

  static from(value: unknown, what = 'request body'): BodyReader {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw badRequest(`The ${what} must be a JSON object, got ${typeName(value)}`);
    }
    return new BodyReader(value as Json);
  }

  name(key: string): string {
    return this.path ? `${this.path}.${key}` : key;
  }

  has(key: string): boolean {
    const v = this.raw[key];
    return v !== undefined && v !== null;
  }

  str(
    key: string,
    opts: { required?: boolean; max?: number; pattern?: RegExp; hint?: string } = {},
  ): string | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) {
      if (opts.required) throw badRequest(`${this.name(key)} is required`);
      return undefined;
    }
    if (typeof v !== 'string')
      throw badRequest(`${this.name(key)} must be a string, got ${typeName(v)}`);
    if (opts.required && v.trim() === '') throw badRequest(`${this.name(key)} must not be empty`);
    if (opts.max !== undefined && v.length > opts.max) {
      throw badRequest(`${this.name(key)} is longer than ${opts.max} characters (${v.length})`);
    }
    if (opts.pattern && !opts.pattern.test(v)) {
      throw badRequest(`${this.name(key)} is not valid${opts.hint ? `: ${opts.hint}` : ''}`);
    }
    return v;
  }

  reqStr(key: string, opts: { max?: number; pattern?: RegExp; hint?: string } = {}): string {
    return this.str(key, { ...opts, required: true }) as string;
  }

  int(
    key: string,
    opts: { required?: boolean; min?: number; max?: number } = {},
  ): number | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) {
      if (opts.required) throw badRequest(`${this.name(key)} is required`);
      return undefined;
    }
    if (typeof v !== 'number')
      throw badRequest(`${this.name(key)} must be a JSON number, got ${typeName(v)}`);
    if (!Number.isSafeInteger(v))
      throw badRequest(`${this.name(key)} must be a whole number, got ${v}`);
    if (opts.min !== undefined && v < opts.min)
      throw badRequest(`${this.name(key)} must be at least ${opts.min}`);
    if (opts.max !== undefined && v > opts.max)
      throw badRequest(`${this.name(key)} must be at most ${opts.max}`);
    return v;
  }

  reqInt(key: string, opts: { min?: number; max?: number } = {}): number {
    return this.int(key, { ...opts, required: true }) as number;
  }

  /** Accepts a JSON number or a string of digits (the spec types screen sizes as strings, browsers send numbers). */
  numeric(key: string): number | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
    if (typeof v === 'string' && /^\d{1,6}$/.test(v)) return Number(v);
    throw badRequest(`${this.name(key)} must be a number of pixels, got ${typeName(v)}`);
  }

  bool(key: string): boolean | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean')
      throw badRequest(`${this.name(key)} must be true or false, got ${typeName(v)}`);
    return v;
  }

  obj(key: string, required = false): BodyReader | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) {
      if (required) throw badRequest(`${this.name(key)} is required`);
      return undefined;
    }
    if (typeof v !== 'object' || Array.isArray(v)) {
      throw badRequest(`${this.name(key)} must be an object, got ${typeName(v)}`);
    }
    return new BodyReader(v as Json, this.name(key));
  }

  reqObj(key: string): BodyReader {
    return this.obj(key, true) as BodyReader;
  }

  objArray(key: string, opts: { required?: boolean; max?: number } = {}): BodyReader[] | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) {
      if (opts.required) throw badRequest(`${this.name(key)} is required`);
      return undefined;
    }
    if (!Array.isArray(v))
      throw badRequest(`${this.name(key)} must be an array, got ${typeName(v)}`);
    if (opts.max !== undefined && v.length > opts.max) {
      throw badRequest(`${this.name(key)} has more than ${opts.max} items`);
    }
    return v.map((item, i) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        throw badRequest(`${this.name(key)}[${i}] must be an object, got ${typeName(item)}`);
      }
      return new BodyReader(item as Json, `${this.name(key)}[${i}]`);
    });
  }
}

export const CURRENCY = /^[A-Z]{3}$/;
/** Upper bound on any amount: big enough for any real payment, small enough to stay exact. */
export const MAX_AMOUNT = 99_999_999_999;
export const MAX_REFERENCE = 99;

export function readUrl(r: BodyReader, key: string, required = false): string | undefined {
  const v = r.str(key, { required, max: 2048 });
  if (v === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw badRequest(`${r.name(key)} must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badRequest(`${r.name(key)} must be an absolute http(s) URL`);
  }
  return v;
}
