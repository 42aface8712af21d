import { fileURLToPath } from 'node:url';
import { startChild } from './bench/lib/child.js';
import { pool } from './bench/lib/pool.js';
import { paymentBody, SOAK_CARDS } from './soak/cards.js';
const lib = (n: string) => fileURLToPath(new URL(`./bench/lib/${n}`, import.meta.url));
const sb = await startChild<{ url: string; token: string; secret: string }>(
  lib('sandbox-child.ts'),
);
const app = await startChild<{ url: string }>(lib('app-child.ts'), {
  APP_MODE: process.env.MODE ?? 'express',
  SANDBOX_URL: sb.ready.url,
  PG_TOKEN: sb.ready.token,
  PG_SECRET: sb.ready.secret,
});
let k = 0;
for (const [conc, cardIdx] of [
  [1, 0],
  [10, 0],
  [50, 0],
  [50, 10],
  [1, 10],
] as const) {
  const t = performance.now();
  const n = 300;
  await pool(conc, n, async () => {
    const r = await fetch(`${app.ready.url}/payments`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: 'https://shop.test',
        'x-order': `o${k++}`,
      },
      body: paymentBody(SOAK_CARDS[cardIdx]!),
    });
    await r.text();
  });
  console.log(
    `conc ${conc} card ${cardIdx}: ${(n / ((performance.now() - t) / 1000)).toFixed(0)} req/s`,
  );
}
await app.close();
await sb.close();
