import type { Route } from './route.js';

/** A route of the table and its decoded path parameters. */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/**
 * Finds a request's route by method and path (relative to the mount, no query), for every adapter
 * alike. A trailing slash is allowed; HEAD is answered as GET.
 */
export function routeMatcher(
  routes: readonly Route[],
): (method: string, path: string) => RouteMatch | undefined {
  const table = routes.map((route) => ({ route, match: matcher(route.path) }));
  return (method, path) => {
    const wanted = method === 'HEAD' ? 'GET' : method;
    for (const { route, match } of table) {
      if (route.method !== wanted) continue;
      const params = match(path);
      if (params) return { route, params };
    }
    return undefined;
  };
}

/** `/payments/:reference` as a function of a path: its decoded parameters, or `undefined`. */
function matcher(pattern: string): (path: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((part) => (part.startsWith(':') ? (names.push(part.slice(1)), '([^/]+)') : escape(part)))
    .join('/');
  const regex = new RegExp(`^${source}/?$`);
  return (path) => {
    const match = regex.exec(path);
    if (!match) return undefined;
    const params: Record<string, string> = {};
    try {
      names.forEach((name, i) => (params[name] = decodeURIComponent(match[i + 1]!)));
    } catch {
      return undefined; // a broken %-escape names nothing
    }
    return params;
  };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
