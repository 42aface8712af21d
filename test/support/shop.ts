import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Whether any process of the group `npm start` leads is still running. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface Shop {
  url: string;
  sandboxUrl: string;
  /** The back office's password, as the banner prints it beside the back office's address. */
  adminPassword: string;
  /** Every line the shop and its in-process sandbox wrote to stdout and stderr. */
  logs: string[];
  /** The environment the shop ran with (its DATA_DIR or DATABASE_URL among it), to start it again. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Runs `npm start` exactly as a newcomer would, on free ports (PORT=0, SANDBOX_PORT=0), and waits
 * for the banner that names the shop's and the gateway's addresses and the back office's password.
 * Unless `env` names a DATA_DIR or a DATABASE_URL, the shop keeps its orders in a PGlite folder of
 * its own, deleted when it stops (each shop of the tests starts empty, and two never share one).
 */
export function startShop(env: Record<string, string> = {}, timeoutMs = 180_000): Promise<Shop> {
  const ownDataDir =
    env.DATA_DIR || env.DATABASE_URL
      ? undefined
      : mkdtempSync(join(tmpdir(), 'pg-checkout-shop-data-'));
  const given = { ...env, ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}) };
  const cleanup = () => {
    if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
  };
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    SANDBOX_PORT: '0',
    NODE_ENV: 'development',
    ...given,
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
      cleanup();
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
      // The in-process sandbox, or the gateway of PG_BASE_URL (a sandbox the test runs itself).
      const sandbox =
        /sandbox in-process at (http:\/\/\S+)/.exec(all) ??
        /Gateway: (http:\/\/\S+) \(real gateway from PG_BASE_URL\)/.exec(all);
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
          env: given,
          stop: () =>
            new Promise<void>((done) => {
              // npm may exit before the shop under it has closed its database: wait for the group.
              const finish = async () => {
                for (let i = 0; i < 200 && groupAlive(child.pid!); i++)
                  await new Promise((r) => setTimeout(r, 50));
                cleanup();
                done();
              };
              if (child.exitCode !== null || child.signalCode !== null) return void finish();
              child.once('exit', () => void finish());
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
      cleanup();
      reject(new Error(`npm start exited with ${code}:\n${logs.join('\n')}`));
    });
  });
}
