import type { PageIntegrityReport } from '../options.js';
import type { Context } from '../setup/context.js';

/** At most this many reports in one body; a browser batches a few. */
export const MAX_REPORTS = 20;
const MAX_URL = 512;

type Kind = PageIntegrityReport['kind'];

/** The Reporting API's report types we take, and what each is to the merchant. */
const TYPES: Record<string, Kind> = {
  'csp-violation': 'csp-violation',
  'integrity-violation': 'integrity-violation',
  'pg-script-error': 'script-error',
};

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

/**
 * A URL as a report may hold it: origin and path of an http(s) URL (a query string may carry what a
 * report has no business holding), a CSP keyword as it is (`inline`, `eval`, `trusted-types-sink`), the
 * scheme of anything else (`data`, `blob`); '' for what is none of these.
 */
function safeUrl(value: unknown): string {
  if (typeof value !== 'string') return '';
  const text = value.trim();
  if (/^[a-z][a-z-]{0,31}$/.test(text)) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return '';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return url.protocol.slice(0, -1);
  return `${url.origin}${url.pathname}`.slice(0, MAX_URL);
}

const directiveOf = (value: unknown): string =>
  typeof value === 'string' && /^[a-z][a-z-]{0,63}$/.test(value.trim()) ? value.trim() : '';

/** One report of the Reporting API (`application/reports+json`), or undefined for what is not one of ours. */
function fromReportingApi(value: unknown, receivedAt: number): PageIntegrityReport | undefined {
  const item = record(value);
  const kind = typeof item?.type === 'string' ? TYPES[item.type] : undefined;
  const body = record(item?.body);
  if (!item || !kind || !body) return undefined;
  const reportOnly = body.disposition === 'report' || body.reportOnly === true;
  return {
    kind,
    documentUrl: safeUrl(body.documentURL ?? item.url),
    blockedUrl: safeUrl(body.blockedURL),
    directive: directiveOf(
      body.effectiveDirective ?? (kind === 'integrity-violation' ? body.destination : undefined),
    ),
    disposition: reportOnly ? 'report' : 'enforce',
    receivedAt,
  };
}

/** The older `report-uri` body (`application/csp-report`). */
function fromReportUri(value: unknown, receivedAt: number): PageIntegrityReport | undefined {
  const body = record(record(value)?.['csp-report']);
  if (!body) return undefined;
  return {
    kind: 'csp-violation',
    documentUrl: safeUrl(body['document-uri']),
    blockedUrl: safeUrl(body['blocked-uri']),
    directive: directiveOf(body['effective-directive'] ?? body['violated-directive']),
    disposition: body.disposition === 'report' ? 'report' : 'enforce',
    receivedAt,
  };
}

/**
 * The reports a body holds, normalized and bounded: an array of Reporting API reports or one
 * `report-uri` body. Items that are not one of ours are dropped; `undefined` when the body holds more than
 * {@link MAX_REPORTS} items.
 */
export function readPageReports(
  body: unknown,
  receivedAt: number,
): PageIntegrityReport[] | undefined {
  if (Array.isArray(body)) {
    if (body.length > MAX_REPORTS) return undefined;
    return body.flatMap((item) => fromReportingApi(item, receivedAt) ?? []);
  }
  const one = fromReportUri(body, receivedAt) ?? fromReportingApi(body, receivedAt);
  return one ? [one] : [];
}

/**
 * Hands each report to the merchant's `onPageIntegrityReport` (counted as a hook delivery) and logs it:
 * the alert PCI DSS 11.6.1 asks for reaches the log even with no hook. A throwing hook is logged only.
 */
export async function receivePageReports(
  reports: PageIntegrityReport[],
  ctx: Context,
): Promise<void> {
  const hook = ctx.options.onPageIntegrityReport;
  for (const report of reports) {
    ctx.logger.warn('payment page report', {
      kind: report.kind,
      directive: report.directive,
      blockedUrl: report.blockedUrl,
      documentUrl: report.documentUrl,
    });
    if (!hook) continue;
    try {
      await hook(report);
      ctx.telemetry.hookDelivery('onPageIntegrityReport', 'delivered');
    } catch (error) {
      ctx.telemetry.hookDelivery('onPageIntegrityReport', 'failed');
      ctx.logger.error('onPageIntegrityReport failed', { error });
    }
  }
}
