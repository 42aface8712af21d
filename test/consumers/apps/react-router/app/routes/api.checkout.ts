// Every method under /api/checkout/: GET and HEAD reach the loader, the others the action.
import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router';
import { checkout } from '../checkout.server';

declare module 'react-router' {
  interface AppLoadContext {
    /** The shopper's address, from server.js's getLoadContext. */
    clientAddress?: string;
  }
}

export function loader({ request, context }: LoaderFunctionArgs) {
  return checkout()(request, { clientAddress: context.clientAddress });
}

export function action({ request, context }: ActionFunctionArgs) {
  return checkout()(request, { clientAddress: context.clientAddress });
}
