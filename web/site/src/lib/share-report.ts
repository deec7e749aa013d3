import { postJson } from '../api/client';
import type { Report, ReportCreated } from '../api/types';
import { maskAddresses } from './mask';
import type { ReportSections } from './report-sections';

/** The report body (frontend contract 19.3) of the chosen sections, addresses masked when the visitor asked. */
export function reportOf(sections: Partial<ReportSections>, locale: string, mask: boolean): Report {
  return {
    v: 1,
    generatedAt: new Date().toISOString(),
    origin: location.hostname.slice(0, 64),
    locale: locale.slice(0, 8),
    sections: mask ? maskAddresses(sections) : sections,
  };
}

/** Stores the report for `days` days on this server: its id, for the link `/r/<id>`, and when it expires. */
export function storeReport(report: Report, days: 1 | 3 | 7): Promise<ReportCreated> {
  return postJson<ReportCreated>('/api/report', { report, ttlDays: days });
}
