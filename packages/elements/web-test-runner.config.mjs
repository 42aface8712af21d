import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { acsPlugin } from './test-support/acs-plugin.mjs';
import { manifestPlugin } from './test-support/manifest-plugin.mjs';
import { ssrPlugin } from './test-support/ssr-plugin.mjs';
import { sourcePlugin } from './test-support/source-plugin.mjs';
import { backendMiddleware, backendPlugin } from './test-support/backend-plugin.mjs';

const tsconfig = fileURLToPath(new URL('./tsconfig.json', import.meta.url));

const launchers = {
  chromium: () =>
    chromeLauncher({
      launchOptions: {
        executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          '--headless=new',
          // Test pages open as tabs; without these a tab that is not in front gets no animation frames.
          '--disable-renderer-backgrounding',
          '--disable-backgrounding-occluded-windows',
          '--disable-background-timer-throttling',
        ],
      },
    }),
  firefox: () =>
    chromeLauncher({
      launchOptions: {
        browser: 'firefox',
        executablePath: process.env.FIREFOX_PATH || '/usr/bin/firefox-esr',
        headless: true,
      },
    }),
};
const browsers = (process.env.PG_WTR_BROWSERS ?? 'chromium,firefox')
  .split(',')
  .map((b) => b.trim());
for (const name of browsers)
  if (!(name in launchers)) throw new Error(`PG_WTR_BROWSERS: unknown browser ${name}`);

export default {
  rootDir: fileURLToPath(new URL('../..', import.meta.url)),
  files: [fileURLToPath(new URL('./src/**/*.test.ts', import.meta.url))],
  middleware: backendMiddleware,
  // pg-source: the workspace's own packages (the protocol's vocabulary) from their sources, as in Node.
  nodeResolve: { exportConditions: ['pg-source', 'browser', 'import', 'default'] },
  // One page at a time: a background tab throttles timers and frames, which 3-D Secure timing tests need.
  concurrency: 1,
  testFramework: { config: { timeout: 40000 } },
  testsFinishTimeout: 180000,
  // Chromium, and Firefox ESR through the same puppeteer-based launcher (WebDriver BiDi). WebKit has no
  // launcher here: test/engines drives it end to end. PG_WTR_BROWSERS=chromium runs one.
  browsers: browsers.map((name) => launchers[name]()),
  plugins: [
    esbuildPlugin({ ts: true, tsconfig }),
    backendPlugin(),
    acsPlugin(),
    manifestPlugin(),
    ssrPlugin(),
    sourcePlugin(),
  ],
};
