import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface Shop {
  url: string;
  sandboxUrl: string;
  /** The back office's password, as the banner prints it beside the back office's address. */
  adminPassword: string;
  /** Every line the shop and its in-process sandbox wrote to stdout and stderr. */
  logs: string[];
  stop(): Promise<void>;
}

/**
 * Runs `npm start` exactly as a newcomer would, on free ports (PORT=0, SANDBOX_PORT=0), and waits
 * for the banner that names the shop's and the sandbox's addresses and the back office's password.
 */
export function startShop(env: Record<string, string> = {}, timeoutMs = 180_000): Promise<Shop> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    SANDBOX_PORT: '0',
    NODE_ENV: 'development',
    ...env,
  };
  const child: ChildProcess = spawn('npm', ['start', '--silent'], {
    cwd: repoRoot,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const logs: string[] = [];
  let buffered = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      kill();
      reject(
        new Error(
          `npm start did not print its address within ${timeoutMs} ms:\n${logs.join('\n')}`,
        ),
      );
    }, timeoutMs);
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    };
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      logs.push(...lines);
      const all = logs.join('\n');
      const shop = /demo shop: (http:\/\/\S+)/.exec(all);
      const sandbox = /sandbox in-process at (http:\/\/\S+)/.exec(all);
      // A generated password is printed; one given in ADMIN_PASSWORD is not.
      const admin = /Back office: \S+ \((?:password: (\S+)|password from ADMIN_PASSWORD)\)/.exec(
        all,
      );
      if (shop && sandbox && admin) {
        clearTimeout(timer);
        resolve({
          url: shop[1]!,
          sandboxUrl: sandbox[1]!,
          adminPassword: childEnv.ADMIN_PASSWORD ?? admin[1]!,
          logs,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              kill();
              setTimeout(() => {
                try {
                  process.kill(-child.pid!, 'SIGKILL');
                } catch {
                  // already gone
                }
              }, 5_000).unref();
            }),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${logs.join('\n')}`));
    });
  });
}
