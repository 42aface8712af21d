// Next.js App Router: every method under /api/checkout/ goes to the checkout handler. Route
// handlers see no socket; `next start` puts the peer's address in X-Forwarded-For (behind your
// own proxy, the address that proxy appended last), so the handler reads the last entry.
import { checkout } from '../../../../lib/checkout';

export const dynamic = 'force-dynamic';

function handle(request: Request): Promise<Response> {
  const forwarded = request.headers.get('x-forwarded-for')?.split(',');
  return checkout()(request, { clientAddress: forwarded?.at(-1)?.trim() });
}

export { handle as GET, handle as POST, handle as DELETE };
