import { CheckoutError } from '../errors.js';
import { answerFor } from './answers.js';

/** A body as it arrives: a Fetch `ReadableStream`, or any async iterable of chunks (Node's request). */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/**
 * `payload_too_large`, and the connection is not kept: what was not read of the body is never
 * waited for. The status form, as only it takes headers beside the code's.
 */
export const tooLarge = (message = 'The request body is too large.') => {
  const { status, headers } = answerFor({ code: 'payload_too_large' });
  return new CheckoutError(status, 'payload_too_large', message, {
    ...headers,
    Connection: 'close',
  });
};

const aborted = () => new CheckoutError('invalid_request', 'The request was aborted.');

/**
 * Reads at most `limit` bytes. A `Content-Length` over the limit is refused before a byte is read;
 * a body that grows past it (chunked) is refused at that chunk and reading stops there.
 */
export async function readBytes(
  source: ByteSource | null,
  declared: string | undefined,
  limit: number,
): Promise<Uint8Array> {
  if (Number(declared) > limit) throw tooLarge();
  if (!source) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const next = chunksOf(source);
  for (;;) {
    let step: IteratorResult<Uint8Array>;
    try {
      step = await next.read();
    } catch {
      throw aborted();
    }
    if (step.done) break;
    size += step.value.byteLength;
    if (size > limit) {
      next.stop();
      throw tooLarge();
    }
    chunks.push(step.value);
  }
  return join(chunks, size);
}

/**
 * One chunk at a time. Stopping cancels a Fetch stream; a Node request is only left unread (its
 * iterator's `return()` would destroy the socket before the 413 is written).
 */
function chunksOf(source: ByteSource): {
  read(): Promise<IteratorResult<Uint8Array>>;
  stop(): void;
} {
  if ('getReader' in source) {
    const reader = source.getReader();
    return {
      read: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
      stop: () => void reader.cancel().catch(() => undefined),
    };
  }
  const iterator = source[Symbol.asyncIterator]();
  return { read: () => iterator.next(), stop: () => undefined };
}

function join(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}
