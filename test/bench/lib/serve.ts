/** Child side of {@link startChild}: announce readiness, answer commands, report memory after GC. */

export interface Memory {
  heapUsedMb: number;
  rssMb: number;
}

type Handler = (arg: unknown) => unknown;

const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;

/** Heap and RSS after two full collections, so figures compare across runs. */
export function memoryAfterGc(): Memory {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc to measure memory');
  gc();
  gc();
  const m = process.memoryUsage();
  return { heapUsedMb: mb(m.heapUsed), rssMb: mb(m.rss) };
}

export function serveCommands(
  ready: unknown,
  handlers: Record<string, Handler>,
  onClose: () => Promise<void>,
): void {
  const all: Record<string, Handler> = {
    mem: () => memoryAfterGc(),
    // CPU time this process has used, in ms: the cost per request when divided by requests.
    cpu: () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    },
    ...handlers,
  };
  process.on('message', async (raw) => {
    const { id, cmd, arg } = raw as { id: number; cmd: string; arg?: unknown };
    try {
      const handler = all[cmd];
      if (!handler) throw new Error(`unknown command ${cmd}`);
      process.send!({ id, result: await handler(arg) });
    } catch (error) {
      process.send!({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
  const stop = () => {
    onClose().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  // The parent died: do not outlive it.
  process.once('disconnect', stop);
  process.send!({ ready });
}
