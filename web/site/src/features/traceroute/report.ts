import type { SectionBody } from '../../lib/report-sections.js';
import type { Hop } from '../globalping/mtr-parse.js';
import type { MtrRow } from '../globalping/rows.js';
import { reportableTarget } from '../globalping/target.js';
import { MAX_MS, MAX_REPORT_PROBES, integerIn, numberIn, textUpTo } from '../globalping/report-values.js';

const MAX_ASN = 4_294_967_295;
const MAX_COUNT = 10_000;

/** One probe's route as the page and the report view show it. */
export interface RouteLine {
  country: string;
  city?: string;
  network?: string;
  asn?: number | null;
  hops: Hop[];
}

function reportHop(hop: Hop): Hop {
  return {
    n: hop.n,
    asn: hop.asn === null ? null : integerIn(hop.asn, MAX_ASN),
    host: hop.host ? textUpTo(hop.host, 128) : undefined,
    ip: hop.ip,
    lossPct: numberIn(hop.lossPct, 100),
    drop: integerIn(hop.drop, MAX_COUNT),
    rcv: integerIn(hop.rcv, MAX_COUNT),
    sntCount: integerIn(hop.sntCount, MAX_COUNT),
    lastMs: numberIn(hop.lastMs, MAX_MS),
    avgMs: numberIn(hop.avgMs, MAX_MS),
    bestMs: numberIn(hop.bestMs, MAX_MS),
    worstMs: numberIn(hop.worstMs, MAX_MS),
    stdevMs: numberIn(hop.stdevMs, MAX_MS),
    javgMs: numberIn(hop.javgMs, MAX_MS),
  };
}

/** The `mtrtest` section of a run (probes without hops left out), or null when the report cannot hold its target. */
export function mtrSection(target: string, rows: readonly MtrRow[]): SectionBody<'mtrtest'> | null {
  if (!reportableTarget(target)) return null;
  return {
    target,
    probes: rows
      .filter((row) => row.hops.length)
      .slice(0, MAX_REPORT_PROBES)
      .map(({ probe, hops }) => ({
        countryCode: probe.country,
        city: textUpTo(probe.city, 64),
        network: textUpTo(probe.network, 128),
        asn: integerIn(probe.asn, MAX_ASN),
        hops: hops.map(reportHop),
      })),
  };
}

export const linesOfRows = (rows: readonly MtrRow[]): RouteLine[] =>
  rows.map(({ probe, hops }) => ({ ...probe, hops }));

export const linesOfSection = (section: SectionBody<'mtrtest'>): RouteLine[] =>
  section.probes.map((p) => ({ ...p, country: p.countryCode ?? '' }));
