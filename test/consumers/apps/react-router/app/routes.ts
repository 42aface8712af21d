import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  // A resource route (no component): its loader and action answer with the handler's Response.
  route('api/checkout/*', 'routes/api.checkout.ts'),
] satisfies RouteConfig;
