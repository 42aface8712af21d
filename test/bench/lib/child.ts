/**
 * Parent side of the bench's process layout: each server under test runs in its own Node
 * process (sources through tsx, like the tests), talks back over IPC and is killed on close.
 */
import { fork, type ChildProcess } from 'node:child_process';

export interface Child<Ready> {
  ready: Ready;
  /** Sends a command the child's `serveCommands` handler answers. */
  ask<T>(cmd: string, arg?: unknown): Promise<T>;
  close(): Promise<void>;
}

/** Starts `script` with the pg-source condition and `--expose-gc`, and waits for its ready message. */
export function startChild<Ready>(
  script: string,
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<Child<Ready>> {
  const child: ChildProcess = fork(script, [], {
    // BENCH_CHILD_FLAGS (e.g. `--cpu-prof`) lets a reader profile the servers under test.
    execArgv: [
      '--conditions=pg-source',
      '--import',
      'tsx',
      '--expose-gc',
      ...(env.BENCH_CHILD_FLAGS ?? process.env.BENCH_CHILD_FLAGS ?? '').split(' ').filter(Boolean),
    ],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const error = new Error(`${script} exited with ${code}`);
      for (const w of waiting.values()) w.reject(error);
      reject(error);
    });
    child.on('message', (raw) => {
      const message = raw as { ready?: Ready; id?: number; result?: unknown; error?: string };
      if (message.ready !== undefined) {
        clearTimeout(timer);
        resolve({
          ready: message.ready,
          ask: <T>(cmd: string, arg?: unknown) =>
            new Promise<T>((res, rej) => {
              const id = ++nextId;
              waiting.set(id, { resolve: res as (v: unknown) => void, reject: rej });
              child.send({ id, cmd, arg });
            }),
          close: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
              setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
            }),
        });
        return;
      }
      const w = message.id === undefined ? undefined : waiting.get(message.id);
      if (!w) return;
      waiting.delete(message.id!);
      if (message.error) w.reject(new Error(message.error));
      else w.resolve(message.result);
    });
  });
}
