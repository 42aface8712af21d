import { CheckoutError } from '../errors.js';
import { readBytes, tooLarge, type ByteSource } from './body-bytes.js';
import type { BodyKind } from './exchange.js';

/** A request's body as an adapter hands it over, for {@link readBody}. */
export interface BodySource {
  /** A request header (case-insensitive), or `undefined`. */
  header(name: string): string | undefined;
  /** The body's bytes as they arrive; `null` for none. */
  bytes: ByteSource | null;
  /** Set when a parser before the checkout already read the body (Express's `req.body`). */
  parsed?: { value: unknown } | undefined;
}

/** What a route's body may cost: JSON up to `bodyLimit`, a bank's form, a gateway's webhook. */
export interface BodyLimits {
  json: number;
  form: number;
  formFields: number;
  raw: number;
}

export const DEFAULT_LIMITS: Omit<BodyLimits, 'json'> = {
  form: 64 * 1024,
  formFields: 20,
  raw: 256 * 1024,
};

const unsupported = (message: string) => new CheckoutError('unsupported_media_type', message);
const notJson = () => unsupported('Send the request body as application/json.');
const invalidJson = () => new CheckoutError('invalid_json', 'The request body is not valid JSON.');

/**
 * The body a route asks for (`kind`), or the `CheckoutError` that refuses it: JSON objects and
 * arrays in UTF-8, a bank's form post, a webhook's exact bytes; nothing compressed (browsers,
 * banks and the gateway never compress what they post). One reader for every adapter.
 */
export async function readBody(
  kind: BodyKind,
  source: BodySource,
  limits: BodyLimits,
): Promise<unknown> {
  if (kind === 'none') return undefined;
  if (source.parsed) return kind === 'json' ? parsedJson(source) : source.parsed.value;
  const type = mediaType(source.header('content-type'));
  if (kind === 'json' && type === undefined) return undefined; // a bodiless POST (confirm, cancel)
  if (kind === 'json' && type?.essence !== 'application/json') throw notJson();
  if (kind === 'form' && type?.essence !== 'application/x-www-form-urlencoded') return {};
  const charset = type?.charset ?? 'utf-8';
  const decode = (kind === 'form' ? FORM_CHARSETS : JSON_CHARSETS).get(charset);
  if (kind !== 'raw' && !decode) throw unsupported('The request body charset is not supported.');
  const encoding = source.header('content-encoding');
  if (encoding && encoding.toLowerCase() !== 'identity')
    throw unsupported('The request body encoding is not supported.');
  const bytes = await readBytes(source.bytes, source.header('content-length'), limits[kind]);
  if (kind === 'raw') return bytes;
  if (kind === 'json') return strictJson(decode!(bytes));
  const form = new URLSearchParams(decode!(bytes));
  if ([...form.keys()].length > limits.formFields)
    throw tooLarge('The request has too many parameters.');
  return Object.fromEntries(form);
}

/** JSON a parser of the merchant's app read as text or bytes is parsed here; an object is used as it is. */
function parsedJson(source: BodySource): unknown {
  const { value } = source.parsed!;
  if (typeof value !== 'string' && !(value instanceof Uint8Array)) return value;
  if (mediaType(source.header('content-type'))?.essence !== 'application/json') throw notJson();
  try {
    const parsed: unknown = JSON.parse(typeof value === 'string' ? value : utf8.decode(value));
    if (typeof parsed === 'object' && parsed !== null) return parsed;
  } catch {
    // answered below
  }
  throw invalidJson();
}

/** Objects and arrays only, as the components only ever send those; blank is `{}`. */
function strictJson(text: string): unknown {
  const first = /\S/.exec(text)?.[0];
  if (first === undefined) return {};
  if (first !== '{' && first !== '[') throw invalidJson();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidJson();
  }
}

function mediaType(header: string | undefined): { essence: string; charset?: string } | undefined {
  if (!header) return undefined;
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

// Keeps a byte order mark, so a JSON body that starts with one stays invalid.
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const decodeUtf8 = (bytes: Uint8Array) => utf8.decode(bytes);

/** ISO-8859-1 byte for byte (TextDecoder's `latin1` is windows-1252). */
function decodeLatin1(bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; at += 8192)
    text += String.fromCharCode(...bytes.subarray(at, at + 8192));
  return text;
}

type Decode = (bytes: Uint8Array) => string;
const JSON_CHARSETS = new Map<string, Decode>([
  ['utf-8', decodeUtf8],
  ['utf8', decodeUtf8],
]);
const FORM_CHARSETS = new Map<string, Decode>([...JSON_CHARSETS, ['iso-8859-1', decodeLatin1]]);
