import type { BrowserRoute, RouteParams } from '@pg-checkout/protocol/browser';

/**
 * The absolute URL of one of the middleware's routes (`BrowserRoutes`), each `:name` filled and
 * encoded: a path the route map does not have, or a missing parameter, does not compile.
 */
export function routeUrl<R extends BrowserRoute>(
  publicUrl: string,
  route: R,
  params: RouteParams<R>,
): string {
  const path = route.slice(route.indexOf(' ') + 1);
  return (
    publicUrl +
    path.replace(/:(\w+)/g, (_, name: string) =>
      encodeURIComponent((params as Record<string, string>)[name]!),
    )
  );
}

/** The bank's post of a v2 challenge's result (`cres`), for one 3-D Secure session. */
export const callbackUrl = (publicUrl: string, session: string) =>
  routeUrl(publicUrl, 'POST /3ds/:session/callback', { session });

/** The bank's post of a v1 result (`PaRes`, the TermUrl), for one 3-D Secure session. */
export const termUrl = (publicUrl: string, session: string) =>
  routeUrl(publicUrl, 'POST /3ds/:session/term', { session });

/** The page that posts the v2 method data to the bank, for one 3-D Secure session. */
export const methodUrl = (publicUrl: string, session: string) =>
  routeUrl(publicUrl, 'GET /3ds/:session/method', { session });

/** Where the browser asks for Step 2 after the v2 method step. */
export const confirmUrl = (publicUrl: string, reference: string) =>
  routeUrl(publicUrl, 'POST /payments/:reference/3dsv2/confirm', { reference });

/** Where the gateway notifies a payment's outcome. */
export const notifyUrl = (publicUrl: string) => routeUrl(publicUrl, 'POST /webhooks/notify', {});
