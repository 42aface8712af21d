/**
 * One request as the route table sees it, whatever the server framework: the adapter (Express, or
 * the Fetch handler) fills it in and sends the {@link HttpAnswer} back.
 */
export interface HttpExchange {
  /** The adapter's own request, handed to the merchant's hooks (`resolveOrder`, `shopperId`). */
  request: unknown;
  method: string;
  /** Path parameters of the matched route (`:reference`, `:session`, `:token`), decoded. */
  params: Record<string, string>;
  /** A request header (case-insensitive), or `undefined`. */
  header(name: string): string | undefined;
  /** The client's address as the server sees it (after its proxy settings), or `undefined`. */
  clientAddress: string | undefined;
  /** The request's own origin (`http://host:port`), for the default allowed origins. */
  origin: string | undefined;
  /** The body, read as the route asks: a JSON value, form fields, or the raw bytes. */
  body: unknown;
}

/** What the adapter sends. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

/** How a route wants its body read; the adapter refuses what it cannot read before the route runs. */
export type BodyKind = 'none' | 'json' | 'form' | 'raw';

/** Headers every checkout answer carries. */
export const BASE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

export function jsonAnswer(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): HttpAnswer {
  return {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}
