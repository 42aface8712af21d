import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { Request, RequestHandler } from 'express';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider, type MetricReader } from '@opentelemetry/sdk-metrics';
import { MetricsHistory } from './metrics-history.js';

/** Who may read `/metrics`: nobody (the default), loopback clients only, or holders of a bearer token. */
export type MetricsAccess = false | { token?: string };

export interface DemoMetrics {
  /** Handed to the checkout's `telemetry.meterProvider`. */
  meterProvider: MeterProvider;
  /** The back office's view: the last hour, sampled in process. */
  history: MetricsHistory;
  /** `GET /metrics` in Prometheus's text format, behind the access rule; `undefined` when off. */
  route: RequestHandler | undefined;
  close(): Promise<void>;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** A loopback client that no proxy speaks for: a proxy on this machine would make the internet look local. */
function directLoopback(req: Request): boolean {
  const address = req.socket.remoteAddress ?? '';
  const local =
    (isIP(address) === 4 && address.startsWith('127.')) ||
    address === '::1' ||
    address.startsWith('::ffff:127.');
  return (
    local && req.headers['x-forwarded-for'] === undefined && req.headers.forwarded === undefined
  );
}

function allowed(req: Request, access: Exclude<MetricsAccess, false>): boolean {
  if (!access.token) return directLoopback(req);
  const given = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(access.token));
}

/**
 * The shop's metrics: the checkout reports to one MeterProvider, read by the back office's charts
 * and, when METRICS or METRICS_TOKEN is set, by Prometheus on `/metrics`.
 */
export function createDemoMetrics(access: MetricsAccess, sampleMs?: number): DemoMetrics {
  const history = new MetricsHistory(sampleMs);
  // The exporter serves through the shop's own route, never on a port of its own.
  const exporter = access
    ? new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true })
    : undefined;
  const readers: MetricReader[] = [history.reader, ...(exporter ? [exporter] : [])];
  const meterProvider = new MeterProvider({ readers });
  history.start();
  const route: RequestHandler | undefined =
    exporter && access
      ? (req, res) => {
          res.setHeader('Cache-Control', 'no-store');
          if (!allowed(req, access)) {
            if (access.token) res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
            res
              .status(access.token ? 401 : 403)
              .type('text')
              .send(
                access.token
                  ? 'metrics need the bearer token of METRICS_TOKEN\n'
                  : 'metrics are served to loopback clients only (set METRICS_TOKEN to serve them further)\n',
              );
            return;
          }
          exporter.getMetricsRequestHandler(req, res);
        }
      : undefined;
  return {
    meterProvider,
    history,
    route,
    async close() {
      history.stop();
      await meterProvider.shutdown();
    },
  };
}
