/** The bench's Redis parts as Markdown tables: stores side by side, and the Sentinel failover. */
import type { Child } from './lib/child.js';
import { table } from './lib/pool.js';
import type { SandboxReady } from './sandbox-bench.js';
import { benchRedisCommandsWithLimits, benchRedisRoutes, type StoreLoad } from './redis-bench.js';
import { benchFailover } from './failover-bench.js';

type Goal = (what: string, ok: boolean) => void;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export async function printRedisRoutes(sandbox: Child<SandboxReady>, goal: Goal): Promise<void> {
  const { levels, commands } = await benchRedisRoutes(sandbox);
  console.log(
    '## Stores on the payment route (card 4111…1111 through the sandbox, rate limits off; medians of alternating rounds)\n',
  );
  const row = (connections: number, store: string, l: StoreLoad, versus: string) => [
    connections,
    store,
    fmt(l.rps),
    fmt(l.p50, 2),
    fmt(l.p99, 2),
    l.bad,
    versus,
  ];
  table(
    ['connections', 'store', 'req/s', 'p50 ms', 'p99 ms', 'non-200', 'vs memory'],
    levels.flatMap((l) => [
      row(l.connections, 'MemoryStore', l.memory, ''),
      row(
        l.connections,
        'RedisStore, one redis-server',
        l.redis,
        `${fmt(l.redisRatio, 2)} / ${l.redisAddedP50 < 0 ? '-' : '+'}${fmt(Math.abs(l.redisAddedP50), 2)} ms p50`,
      ),
      row(l.connections, 'RedisStore, 3-master Cluster', l.cluster, fmt(l.clusterRatio, 2)),
    ]),
  );
  console.log(
    '## Redis commands per approved card payment (20 payments one after another; INFO commandstats on every node; a script counts the commands it runs)\n',
  );
  commandsTable(commands);
  const most = Math.max(commands.redis.perPayment, commands.cluster.perPayment);
  goal(`Redis commands per approved payment ${fmt(most, 2)} <= 4`, most <= 4);
}

type Counted = { perPayment: number; breakdown: Record<string, number> };

/** One table of commands per payment, on one Redis and on a Cluster, with each command's share. */
function commandsTable(commands: { redis: Counted; cluster: Counted }): void {
  const breakdown = (b: Record<string, number>) =>
    Object.entries(b)
      .map(([name, n]) => `${name.toUpperCase()} ${fmt(n, 2)}`)
      .join(', ');
  table(
    ['store', 'commands per payment', 'by command'],
    [
      ['RedisStore, one redis-server', commands.redis] as const,
      ['RedisStore, 3-master Cluster', commands.cluster] as const,
    ].map(([store, c]) => [store, fmt(c.perPayment, 2), breakdown(c.breakdown)]),
  );
}

/** Redis commands per card payment with every limit on; the goal is at most 10 on a Cluster. */
export async function printRedisCommandsWithLimits(
  sandbox: Child<SandboxReady>,
  goal: Goal,
): Promise<void> {
  const commands = await benchRedisCommandsWithLimits(sandbox);
  console.log(
    '## Redis commands per approved card payment with every limit on (per client, per shopper, declines per order, shopper and client; a shopper signed in; 20 payments one after another; INFO commandstats on every node; a script counts the commands it runs)\n',
  );
  commandsTable(commands);
  const onCluster = commands.cluster.perPayment;
  goal(
    `Redis commands per card payment, every limit on, 3-master Cluster ${fmt(onCluster, 2)} <= 10`,
    onCluster <= 10,
  );
}

export async function printFailover(goal: Goal): Promise<void> {
  const run = await benchFailover();
  const a = run.audit;
  console.log(
    '## Sentinel failover under load (2 instances, 10 connections, primary SIGKILLed once)\n',
  );
  table(
    ['', ''],
    [
      ['down-after-milliseconds', run.downAfterMs],
      ['kill -> every sentinel names the new primary', `${fmt(run.failoverMs / 1000, 1)} s`],
      ['run length', `${fmt(run.seconds, 1)} s`],
      ['orders / requests', `${fmt(a.orders)} / ${fmt(a.requests)}`],
      [
        'answers',
        Object.entries(a.answers)
          .map(([k, n]) => `${k}: ${fmt(n)}`)
          .join(', '),
      ],
      ['orders charged by the gateway', fmt(a.charged)],
      ['charged but told it failed', a.chargedButFailed.length],
      ['charged twice', a.doubled.length],
      ['told approved, never charged', a.approvedNotCharged.length],
      [
        'charged, not read back approved / failed or charged again on a second submit',
        a.notSettled.length,
      ],
      [
        'second submit of each charged order',
        Object.entries(a.resubmitted)
          .map(([k, n]) => `${k}: ${fmt(n)}`)
          .join(', '),
      ],
    ],
  );
  goal(
    `failover: ${a.chargedButFailed.length} charged-but-failed, ${a.doubled.length} doubled (both 0)`,
    a.chargedButFailed.length === 0 && a.doubled.length === 0,
  );
}
