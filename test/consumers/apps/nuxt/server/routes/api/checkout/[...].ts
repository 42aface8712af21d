// Nitro: every method under /api/checkout/ goes to the checkout handler as a Fetch API Request,
// with the shopper's address from the socket (getRequestIP without xForwardedFor).
import { defineEventHandler, getRequestIP, sendWebResponse, toWebRequest } from 'h3';
import { checkout } from '../../../utils/checkout';

export default defineEventHandler(async (event) =>
  sendWebResponse(
    event,
    await checkout()(toWebRequest(event), { clientAddress: getRequestIP(event) }),
  ),
);
