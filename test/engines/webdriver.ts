import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** The W3C WebDriver element key: an element in a command's JSON. */
export const ELEMENT = 'element-6066-11e4-a52e-4cf1f6ef5c4d';
export type ElementRef = { [ELEMENT]: string };

export const Keys = { Tab: '\uE004', Enter: '\uE007', Escape: '\uE00C', Backspace: '\uE003' };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A bare W3C WebDriver session over HTTP: the few commands the engine tests need, nothing more. */
export class WebDriverSession {
  private constructor(
    private readonly base: string,
    private readonly stopDriver: () => Promise<void>,
  ) {}

  /** WebKitGTK's MiniBrowser through WebKitWebDriver, under its own X server (xvfb-run). */
  static async webkit(): Promise<WebDriverSession> {
    const port = await freePort();
    const child: ChildProcess = spawn('xvfb-run', ['-a', 'WebKitWebDriver', `--port=${port}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const stop = () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          resolve();
        }
        setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // gone
          }
        }, 3_000).unref();
      });
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        const status = (await (await fetch(`${base}/status`)).json()) as {
          value?: { ready?: boolean };
        };
        if (status.value?.ready !== false) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline || child.exitCode !== null) {
        await stop();
        throw new Error(`WebKitWebDriver did not start: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const created = (await (
      await fetch(`${base}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          capabilities: {
            alwaysMatch: {
              'webkitgtk:browserOptions': {
                binary: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
                args: ['--automation'],
              },
            },
          },
        }),
      })
    ).json()) as { value: { sessionId?: string; message?: string } };
    if (!created.value.sessionId) {
      await stop();
      throw new Error(`no WebKit session: ${created.value.message}`);
    }
    const session = new WebDriverSession(`${base}/session/${created.value.sessionId}`, stop);
    return session;
  }

  async command<T = unknown>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<T> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const json = (await res.json()) as { value: T & { error?: string; message?: string } };
    if (!res.ok)
      throw new Error(`WebDriver ${method} ${path}: ${json.value.error} ${json.value.message}`);
    return json.value;
  }

  /** Runs `body` (a function body; `arguments` are `args`) in the current browsing context. */
  execute<T>(body: string, ...args: unknown[]): Promise<T> {
    return this.command<T>('POST', '/execute/sync', { script: body, args });
  }

  /** Real pointer: move to viewport (x, y) of the top-level page, press, release. */
  async click(x: number, y: number): Promise<void> {
    await this.command('POST', '/actions', {
      actions: [
        {
          type: 'pointer',
          id: 'mouse',
          parameters: { pointerType: 'mouse' },
          actions: [
            {
              type: 'pointerMove',
              duration: 0,
              origin: 'viewport',
              x: Math.round(x),
              y: Math.round(y),
            },
            { type: 'pointerDown', button: 0 },
            { type: 'pointerUp', button: 0 },
          ],
        },
      ],
    });
    await this.command('DELETE', '/actions');
  }

  /** Real keys, one down/up pair each, to whatever has focus (frames included). */
  async keys(text: string): Promise<void> {
    const actions = [...text].flatMap((value) => [
      { type: 'keyDown', value },
      { type: 'keyUp', value },
    ]);
    await this.command('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] });
    await this.command('DELETE', '/actions');
  }

  async close(): Promise<void> {
    await this.command('DELETE', '').catch(() => undefined);
    await this.stopDriver();
  }
}
