import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./real-backend.ts', import.meta.url));

/**
 * Starts test-support/real-backend.ts (sandbox + express, from their TypeScript sources) in a child
 * process and resolves with its port; rejects if it does not come up in time.
 */
export function startRealBackend(pageOrigin) {
  const child = spawn(process.execPath, ['--conditions=pg-source', '--import', 'tsx', script], {
    env: { ...process.env, PG_PAGE_ORIGIN: pageOrigin },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error('the real backend did not start within 20 s'));
    }, 20_000);
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const line = output.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      const { port, sandboxUrl } = JSON.parse(line);
      resolve({
        port,
        sandboxUrl,
        close: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.stdin.end();
            setTimeout(() => child.kill('SIGKILL'), 5000).unref();
          }),
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the real backend exited early (code ${code})`));
    });
  });
}

/** Koa middleware forwarding `{prefix}/*` to 127.0.0.1:port, so the middleware shares the test page's origin. */
export function proxy(prefix, getPort) {
  return (ctx, next) => {
    const port = getPort();
    if (!port || !(ctx.path === prefix || ctx.path.startsWith(`${prefix}/`))) return next();
    ctx.respond = false;
    return new Promise((resolve) => {
      const upstream = request(
        {
          host: '127.0.0.1',
          port,
          method: ctx.req.method,
          path: ctx.req.url,
          headers: ctx.req.headers,
        },
        (response) => {
          ctx.res.writeHead(response.statusCode ?? 502, response.headers);
          response.pipe(ctx.res);
          response.on('end', resolve);
        },
      );
      upstream.on('error', () => {
        ctx.res.writeHead(502, { 'content-type': 'application/json' });
        ctx.res.end(
          JSON.stringify({ success: false, code: 'gateway_unavailable', message: 'proxy error' }),
        );
        resolve();
      });
      ctx.req.pipe(upstream);
    });
  };
}
