import type { PageIntegrityReport } from '@pg-checkout/express';

/** Reports kept for the back office: anyone can post one, so a short list, newest first. */
export const MAX_REPORTS = 50;

const reports: PageIntegrityReport[] = [];

/** The payment pages' reports (CSP, Trusted Types, integrity) the middleware handed to `onPageIntegrityReport`. */
export const pageReportLog = {
  add(report: PageIntegrityReport): void {
    reports.unshift(report);
    if (reports.length > MAX_REPORTS) reports.length = MAX_REPORTS;
  },
  list: (): readonly PageIntegrityReport[] => reports,
};
