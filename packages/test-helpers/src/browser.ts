import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium (CHROME_PATH overrides), with the flags this machine needs as root.
 * `backForwardCache`: keep it on as in a shopper's browser (Playwright turns it off by default).
 */
export function launchChromium(options: { backForwardCache?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    headless: true,
    ...(options.backForwardCache ? { ignoreDefaultArgs: ['--disable-back-forward-cache'] } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
