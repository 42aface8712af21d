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
