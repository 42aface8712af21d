import type { BrowserRoute, RouteMethod, RoutePattern } from '@pg-checkout/protocol/browser';
import type { Context } from '../setup/context.js';
import type { BodyKind, HttpAnswer, HttpExchange } from './exchange.js';

/** Method and Express-style path of one key of the route map (`@pg-checkout/protocol/browser`). */
export type RouteKey<R extends BrowserRoute = BrowserRoute> = R extends BrowserRoute
  ? { method: RouteMethod<R>; path: RoutePattern<R> }
  : never;

/** One route of the browser API (docs/contracts.md): guard, parse, call, send. */
export type Route = RouteKey & {
  body: BodyKind;
  /** Answers as an HTML page, never JSON, whatever fails (the bank's frame shows it). */
  page?: true;
  run(ex: HttpExchange, ctx: Context): Promise<HttpAnswer>;
};
