// Every method under /api/checkout/ goes to the checkout handler, with the shopper's address from
// adapter-node (the socket, or ADDRESS_HEADER behind a proxy).
import { checkout } from '$lib/server/checkout';
import type { RequestHandler } from './$types';

export const fallback: RequestHandler = ({ request, getClientAddress }) =>
  checkout()(request, { clientAddress: getClientAddress() });
