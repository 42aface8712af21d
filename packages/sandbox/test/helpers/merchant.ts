import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tiny merchant site: serves pages set by the test and records what the bank posts back. */
export async function startMerchant(): Promise<{
  url: string;
  pages: Map<string, string>;
  posts: { path: string; fields: Record<string, string> }[];
  close(): Promise<void>;
}> {
  const pages = new Map<string, string>();
  const posts: { path: string; fields: Record<string, string> }[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST') {
        posts.push({
          path,
          fields: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
        });
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<!doctype html><title>done</title><p id="done">received ${path}</p>`);
        return;
      }
      const html =
        pages.get(path) ?? `<!doctype html><title>${path}</title><p id="landed">${path}</p>`;
      res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    pages,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** A page that posts the given fields into an iframe, the way the checkout components do. */
export function framePostPage(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeAttr(k)}" value="${escapeAttr(v)}">`)
    .join('');
  return (
    `<!doctype html><title>checkout</title><iframe name="challenge" title="3-D Secure" width="500" height="600"></iframe>` +
    `<form id="f" method="POST" action="${escapeAttr(action)}" target="challenge">${inputs}</form>` +
    `<script>document.getElementById('f').submit();</script>`
  );
}
