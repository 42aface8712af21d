import { escapeHtml } from '../platform/html.js';
import { MAX_REPORTS, pageReportLog } from '../shop/page-report-log.js';

/** The back office's section: the last reports, each field escaped (they come from browsers, or anyone). */
export function renderPageReports(): string {
  const rows = pageReportLog
    .list()
    .map(
      (r) => `<tr>
<td>${escapeHtml(new Date(r.receivedAt).toISOString())}</td>
<td data-kind="${escapeHtml(r.kind)}">${escapeHtml(r.kind)}</td>
<td>${escapeHtml(r.directive)}</td>
<td><code>${escapeHtml(r.blockedUrl)}</code></td>
<td>${escapeHtml(r.documentUrl)}</td>
<td>${escapeHtml(r.disposition)}</td>
</tr>`,
    )
    .join('\n');
  return `<section aria-labelledby="reports-title">
<h2 id="reports-title">Payment page reports (the last ${MAX_REPORTS})</h2>
<table>
<thead><tr><th>Received</th><th>Kind</th><th>Directive</th><th>Blocked</th><th>Page</th><th>Disposition</th></tr></thead>
<tbody>${rows || '<tr><td colspan="6">None yet.</td></tr>'}</tbody>
</table>
</section>`;
}
