import type { Attributes, Meter, Span, Tracer } from '@opentelemetry/api';
import type { PaymentRecord, TraceOrigin } from '../order/records.js';
import { builtin, instrumentation, otelApi } from './api.js';
import { createInstruments, type Instruments } from './instruments.js';
import { ATTR, PREFIX, allowed, paymentAttributes, threeDSAttributes } from './names.js';
import type { TelemetryOptions } from '../options.js';

/** Where the gateway is, as OpenTelemetry's HTTP client attributes name it. */
export interface GatewayServer {
  address: string;
  port: number;
}

/** How a use case ended, for its span: its HTTP status and what the edge says that status means. */
export interface UseCaseEnd {
  status?: number;
  outcome?: 'ok' | 'declined' | 'rejected' | 'fault';
}

/**
 * What the core reports through: spans for use cases and gateway calls, and the metrics. With no
 * `@opentelemetry/api`, no SDK and no providers in the options, every method is a pass-through.
 */
export interface Telemetry {
  /** Whether anything is recorded (an SDK or providers found); decided at the first request. */
  readonly recording: boolean;
  /** Runs `run` as the use case `name` (span `pg_checkout.<name>`), the gateway calls nested under it. */
  useCase<T>(
    name: string,
    attributes: Record<string, string>,
    run: () => Promise<T>,
    end?: (result: T) => UseCaseEnd,
  ): Promise<T>;
  /** The use case failed with `error` (answered, not thrown): its bounded type goes on the span. */
  failed(error: unknown): void;
  /**
   * One gateway call: a client span (see `gatewaySpans`) and the duration histogram. `server` is
   * where the gateway is (`server.address`, `server.port` on the span), when its base URL is known.
   */
  gatewayCall<T>(
    operation: string,
    run: () => Promise<T>,
    judge: (error: unknown) => string,
    server?: GatewayServer,
  ): Promise<T>;
  /** One HTTP exchange of the current gateway call (a client's `onExchange`): its method and status on the span. */
  gatewayExchange(exchange: { method: string; status?: number; attempt: number }): void;
  /**
   * A payment start that ended with no outcome from the gateway (an outage, a setup fault): no
   * record settles it, so it is counted here, in attempts, outcome `error` with its failure.
   */
  paymentUnsettled(method: string, failure: string): void;
  /** A payment's record saved with a new state: attempt, order and 3-D Secure counters, the span's outcome. */
  paymentSettled(record: PaymentRecord): void;
  /** Links the current span to the trace where the payment began. */
  linkPayment(record: Pick<PaymentRecord, 'trace'>): void;
  /** The current span, to keep with a new payment record. */
  origin(): TraceOrigin | undefined;
  /** A merchant hook ran (`delivered`) or threw (`failed`). */
  hookDelivery(hook: string, outcome: 'delivered' | 'failed'): void;
  /** How many hook deliveries wait for a retry, read at each collection (an outbox's length). */
  waitingHookDeliveries(source: () => number | Promise<number>): void;
  /** A limit refused a request. */
  limitHit(limit: string, scope: string): void;
  /** An order, shopper or client reached its decline limit: someone may be testing stolen cards. */
  suspectedCardTesting(scope: string): void;
}

const pass = <T>(_name: string, _attributes: unknown, run: () => Promise<T>) => run();

/** Reports nothing, costs a function call. */
export const NOOP_TELEMETRY: Telemetry = {
  recording: false,
  useCase: pass,
  failed: () => undefined,
  gatewayCall: (_operation, run) => run(),
  gatewayExchange: () => undefined,
  paymentUnsettled: () => undefined,
  paymentSettled: () => undefined,
  linkPayment: () => undefined,
  origin: () => undefined,
  hookDelivery: () => undefined,
  waitingHookDeliveries: () => undefined,
  limitHit: () => undefined,
  suspectedCardTesting: () => undefined,
};

// Where @opentelemetry/instrumentation-undici listens: when someone does, fetch is traced already.
// No diagnostics channels on the runtime (Workers): nothing can listen there, so no fetch is traced.
// Looked up at the first gateway call, not at load.
let undiciRequests: { readonly hasSubscribers: boolean } | undefined;
const fetchTraced = () =>
  (undiciRequests ??= builtin<{
    channel(name: string): { readonly hasSubscribers: boolean };
  }>('node:diagnostics_channel')?.channel('undici:request:create') ?? {
    hasSubscribers: false,
  }).hasSubscribers;

type Api = NonNullable<ReturnType<typeof otelApi>>;

/** The tracer to use, or `undefined` when nobody collects spans (no SDK registered, none passed). */
function tracerOf(api: Api, options: TelemetryOptions): Tracer | undefined {
  const { name, version } = instrumentation();
  if (options.tracerProvider) return options.tracerProvider.getTracer(name, version) as Tracer;
  const global = api.trace.getTracerProvider() as {
    getDelegateTracer?: (n: string, v: string) => Tracer | undefined;
  };
  // The API's proxy answers a no-op tracer until an SDK registers; ask it for the SDK's own.
  return typeof global.getDelegateTracer === 'function'
    ? global.getDelegateTracer(name, version)
    : api.trace.getTracer(name, version);
}

function meterOf(api: Api, options: TelemetryOptions): Meter | undefined {
  const { name, version } = instrumentation();
  const meter = (options.meterProvider?.getMeter(name, version) ??
    api.metrics.getMeter(name, version)) as Meter;
  return meter === api.createNoopMeter() ? undefined : meter;
}

/**
 * The core's telemetry. Providers are looked up at the first request, not at setup, so an SDK
 * started after the checkout was built is still found.
 */
export function createTelemetry(options: TelemetryOptions | undefined = {}): Telemetry {
  if (options.enabled === false) return NOOP_TELEMETRY;
  const api = otelApi();
  if (!api) return NOOP_TELEMETRY;
  let resolved: Telemetry | undefined;
  // Sources registered while the checkout is built: handed over when the providers are looked up,
  // so registering one does not fix the providers before the application's SDK starts.
  const sources: (() => number | Promise<number>)[] = [];
  const real = (): Telemetry => {
    if (resolved) return resolved;
    const tracer = tracerOf(api, options);
    const meter = meterOf(api, options);
    resolved =
      tracer || meter
        ? recording(api, tracer, meter && createInstruments(meter), options)
        : NOOP_TELEMETRY;
    for (const source of sources) resolved.waitingHookDeliveries(source);
    return resolved;
  };
  return {
    get recording() {
      return real().recording;
    },
    useCase: (name, attributes, run, end) => real().useCase(name, attributes, run, end),
    failed: (error) => real().failed(error),
    gatewayCall: (operation, run, judge, server) =>
      real().gatewayCall(operation, run, judge, server),
    gatewayExchange: (exchange) => real().gatewayExchange(exchange),
    paymentUnsettled: (method, failure) => real().paymentUnsettled(method, failure),
    paymentSettled: (record) => real().paymentSettled(record),
    linkPayment: (record) => real().linkPayment(record),
    origin: () => real().origin(),
    hookDelivery: (hook, outcome) => real().hookDelivery(hook, outcome),
    waitingHookDeliveries: (source) =>
      resolved ? resolved.waitingHookDeliveries(source) : void sources.push(source),
    limitHit: (limit, scope) => real().limitHit(limit, scope),
    suspectedCardTesting: (scope) => real().suspectedCardTesting(scope),
  };
}

/** The bounded type of a failure: a checkout error's code from the allow-list, else the class name. */
function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && allowed('failure', code) !== 'other') return code;
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' && /^[A-Za-z]{1,40}$/.test(name) ? name : 'other';
}

function recording(
  api: Api,
  tracer: Tracer | undefined,
  instruments: Instruments | undefined,
  options: TelemetryOptions,
): Telemetry {
  const { SpanKind, SpanStatusCode } = api;
  const active = () => (tracer ? api.trace.getActiveSpan() : undefined);
  const linked = new WeakMap<Span, Set<string>>();
  // The gateway's client spans, so an exchange is put only on the span of its own call.
  const gatewaySpansOpen = new WeakSet<Span>();
  const gatewaySpans = options.gatewaySpans ?? 'auto';
  const waiting: (() => number | Promise<number>)[] = [];
  instruments?.hooksWaiting.addCallback(async (result) => {
    let total = 0;
    for (const source of waiting) total += await source();
    result.observe(total);
  });

  const fail = (span: Span, type: string) => {
    span.setAttribute(ATTR.errorType, type);
    // No message: a gateway's or a hook's text may name a reference.
    span.setStatus({ code: SpanStatusCode.ERROR });
  };

  return {
    recording: true,
    async useCase(name, attributes, run, end) {
      if (!tracer) return run();
      return tracer.startActiveSpan(
        `${PREFIX}.${name}`,
        { kind: SpanKind.INTERNAL, attributes: { [ATTR.useCase]: name, ...attributes } },
        async (span) => {
          try {
            const result = await run();
            const { status, outcome } = end?.(result) ?? {};
            if (status !== undefined) span.setAttribute(ATTR.httpStatus, status);
            if (outcome === 'declined' || outcome === 'rejected')
              span.setAttribute(ATTR.outcome, outcome);
            else if (outcome === 'fault') fail(span, String(status));
            return result;
          } catch (error) {
            fail(span, errorType(error));
            throw error;
          } finally {
            span.end();
          }
        },
      );
    },
    failed(error) {
      const span = active();
      if (span) span.setAttribute(ATTR.failure, errorType(error));
    },
    async gatewayCall(operation, run, judge, server) {
      const started = performance.now();
      const traced =
        tracer && (gatewaySpans === 'always' || (gatewaySpans === 'auto' && !fetchTraced()));
      const span = traced
        ? tracer.startSpan(`${PREFIX}.gateway ${operation}`, {
            kind: SpanKind.CLIENT,
            attributes: {
              [ATTR.operation]: operation,
              ...(server
                ? { [ATTR.serverAddress]: server.address, [ATTR.serverPort]: server.port }
                : {}),
            },
          })
        : undefined;
      if (span) gatewaySpansOpen.add(span);
      let failure: string | undefined;
      try {
        return span
          ? await api.context.with(api.trace.setSpan(api.context.active(), span), run)
          : await run();
      } catch (error) {
        failure = judge(error);
        throw error;
      } finally {
        // A decline is the gateway's answer, not a failed call.
        const declined = failure === 'declined' || failure === 'authentication_failed';
        const attributes: Attributes = { [ATTR.operation]: operation };
        if (declined) attributes[ATTR.outcome] = 'declined';
        else if (failure) attributes[ATTR.errorType] = failure;
        instruments?.gatewayDuration.record((performance.now() - started) / 1000, attributes);
        if (span) {
          if (declined) span.setAttribute(ATTR.outcome, 'declined');
          else if (failure) fail(span, failure);
          span.end();
        }
      }
    },
    gatewayExchange({ method, status, attempt }) {
      const span = active();
      if (!span || !gatewaySpansOpen.has(span)) return;
      span.setAttribute(ATTR.httpMethod, method === 'GET' || method === 'POST' ? method : '_OTHER');
      if (status !== undefined) span.setAttribute(ATTR.httpStatus, status);
      if (attempt > 0) span.setAttribute(ATTR.resendCount, attempt);
    },
    paymentUnsettled(method, failure) {
      instruments?.attempts.add(1, {
        [ATTR.outcome]: 'error',
        [ATTR.method]: allowed('method', method),
        [ATTR.failure]: allowed('failure', failure),
      });
    },
    paymentSettled(record) {
      const attributes = paymentAttributes(record);
      active()?.setAttributes(attributes);
      if (!instruments) return;
      const { state } = record;
      const final = state.status !== 'authenticating';
      if (final) instruments.attempts.add(1, attributes);
      if (state.status === 'approved')
        instruments.ordersPaid.add(1, { [ATTR.method]: attributes[ATTR.method] });
      const threeDS = threeDSAttributes(record);
      if (threeDS[ATTR.threeDSFlow] !== 'challenge') return;
      const version = { [ATTR.threeDSVersion]: threeDS[ATTR.threeDSVersion] };
      if (state.status === 'authenticating') {
        if (state.threeDS.version === 1 || state.threeDS.step === 'challenge')
          instruments.challengesStarted.add(1, version);
      } else
        instruments.challengesCompleted.add(1, {
          ...version,
          [ATTR.outcome]: attributes[ATTR.outcome]!,
        });
    },
    linkPayment(record) {
      const span = active();
      const origin = record.trace;
      if (!span || !origin) return;
      const own = span.spanContext();
      if (origin.traceId === own.traceId) return;
      const seen = linked.get(span) ?? new Set<string>();
      if (seen.has(origin.spanId)) return;
      linked.set(span, seen.add(origin.spanId));
      span.addLink({ context: { ...origin, isRemote: true } });
    },
    origin() {
      const span = active();
      if (!span) return undefined;
      const { traceId, spanId, traceFlags } = span.spanContext();
      return api.isSpanContextValid(span.spanContext())
        ? { traceId, spanId, traceFlags }
        : undefined;
    },
    hookDelivery(hook, outcome) {
      instruments?.hookDeliveries.add(1, {
        [ATTR.hook]: allowed('hook', hook),
        [ATTR.outcome]: outcome,
      });
    },
    waitingHookDeliveries(source) {
      waiting.push(source);
    },
    limitHit(limit, scope) {
      instruments?.limitsHit.add(1, {
        [ATTR.limit]: allowed('limit', limit),
        [ATTR.limitScope]: allowed('limitScope', scope),
      });
    },
    suspectedCardTesting(scope) {
      instruments?.cardTesting.add(1, { [ATTR.limitScope]: allowed('limitScope', scope) });
    },
  };
}
