#!/usr/bin/env node
// `npm run test:strict`: the money tests of packages/server and packages/express again, on the strict
// sandbox (SANDBOX_PROFILE=strict): a reused merchant reference makes a new transaction, over-refunds go
// through, lists are exact and cut at 100 newest first, notifications come late, twice, out of order or
// never. The FakeGateway follows the same profile. The core must hold on both (issue 38).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const MONEY = [
  'packages/express/test/delivery.test.ts',
  'packages/express/test/refunds.test.ts',
  'packages/server/test/book.test.ts',
  'packages/server/test/crash-mid-create.test.ts',
  'packages/server/test/delivery.test.ts',
  'packages/server/test/reconcile-list.test.ts',
  'packages/server/test/refund-delivery.test.ts',
  'packages/server/test/refund-slots.test.ts',
  'packages/server/test/refund.test.ts',
  'packages/server/test/use-cases.test.ts',
  'packages/server/test/http/attacks.test.ts',
  'packages/server/test/http/caps-reserved.test.ts',
  'packages/server/test/http/charged-already.test.ts',
  'packages/server/test/http/form-payments.test.ts',
  'packages/server/test/http/multi-instance-sandbox.test.ts',
  'packages/server/test/http/order-core.test.ts',
  'packages/server/test/http/proof-carried.test.ts',
  'packages/server/test/http/sandbox-cards.test.ts',
  'packages/server/test/http/sandbox-flows.test.ts',
  'packages/server/test/http/stores-memory-checkout.test.ts',
  'packages/server/test/http/webhooks.test.ts',
];
const missing = MONEY.filter((file) => !existsSync(new URL(`../${file}`, import.meta.url)));
if (missing.length > 0) {
  console.error(`test:strict: not test files any more: ${missing.join(', ')}`);
  process.exit(1);
}
const started = Date.now();
const run = spawnSync(
  process.execPath,
  [
    '--conditions=pg-source',
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=3',
    '--test-reporter=spec',
    ...MONEY,
  ],
  {
    cwd: new URL('..', import.meta.url),
    stdio: 'inherit',
    env: { ...process.env, SANDBOX_PROFILE: 'strict' },
  },
);
const seconds = Math.round((Date.now() - started) / 1000);
console.log(
  `\ntest:strict ${run.status === 0 ? 'passed' : 'failed'} in ${seconds} s (${MONEY.length} files on the strict sandbox)`,
);
process.exit(run.status ?? 1);
