import type { SectionBody } from '../../lib/report-sections.js';
import type { PingRow } from '../globalping/rows.js';
import { reportableTarget } from '../globalping/target.js';
import { MAX_MS, MAX_REPORT_PROBES, integerIn, numberIn } from '../globalping/report-values.js';

/** The `pingtest` section of a run, or null when the report cannot hold its target. */
export function pingSection(target: string, rows: readonly PingRow[]): SectionBody<'pingtest'> | null {
  if (!reportableTarget(target)) return null;
  return {
    target,
    probes: rows.slice(0, MAX_REPORT_PROBES).map(({ probe, stats }) => ({
      countryCode: probe.country,
      stats: {
        min: numberIn(stats.min, MAX_MS),
        max: numberIn(stats.max, MAX_MS),
        avg: numberIn(stats.avg, MAX_MS),
        loss: numberIn(stats.loss, 100),
        total: integerIn(stats.total, 1000),
        rcv: integerIn(stats.rcv, 1000),
        drop: integerIn(stats.drop, 1000),
      },
    })),
  };
}

/** One country's round trips as the page and the report view show them. */
export interface PingLine {
  country: string;
  /** The probe's city and network (a live run; a shared report has only the country). */
  city?: string;
  network?: string;
  stats: {
    min?: number | null;
    avg?: number | null;
    max?: number | null;
    loss?: number | null;
    rcv?: number | null;
    total?: number | null;
  };
}

export const linesOfRows = (rows: readonly PingRow[]): PingLine[] =>
  rows.map(({ probe, stats }) => ({ country: probe.country, city: probe.city, network: probe.network, stats }));

export const linesOfSection = (section: SectionBody<'pingtest'>): PingLine[] =>
  section.probes.map((p) => ({ country: p.countryCode ?? '', stats: p.stats }));
