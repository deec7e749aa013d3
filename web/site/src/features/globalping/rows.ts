import type { Measurement, PingStats, Probe } from './measurement.js';
import { parseMtr, type Hop } from './mtr-parse.js';

// Which probes' results each page shows, as the reference frontend chooses them.

export interface PingRow {
  probe: Probe;
  stats: PingStats & { min: number };
}

export interface MtrRow {
  probe: Probe;
  hops: Hop[];
}

export interface HttpRow {
  probe: Probe;
  /** `finished`, `failed`, or `in-progress` until the end, when a probe still working counts as failed. */
  status: string;
  statusCode: number | null;
}

/** Finished probes with a round trip measured (a probe that lost every packet has no `min`). */
export function pingRows(measurement: Measurement): PingRow[] {
  return measurement.results.flatMap(({ probe, status, stats }) =>
    status === 'finished' && stats && stats.min !== null ? [{ probe, stats: { ...stats, min: stats.min } }] : [],
  );
}

/** Finished probes with the MTR's text, parsed into hops. */
export function mtrRows(measurement: Measurement): MtrRow[] {
  return measurement.results.flatMap(({ probe, status, rawOutput }) =>
    status === 'finished' && rawOutput !== null ? [{ probe, hops: parseMtr(rawOutput) }] : [],
  );
}

const HTTP_STATES = new Set(['finished', 'failed', 'in-progress']);

/** Every probe that printed something; at the end those still working failed, and rows follow `order` (country codes). */
export function httpRows(measurement: Measurement, final: boolean, order: readonly string[]): HttpRow[] {
  const rank = (country: string) => {
    const i = order.indexOf(country);
    return i < 0 ? order.length : i;
  };
  const rows = measurement.results.flatMap(({ probe, status, rawOutput, statusCode }) =>
    HTTP_STATES.has(status) && rawOutput !== null
      ? [{ probe, status: final && status === 'in-progress' ? 'failed' : status, statusCode }]
      : [],
  );
  return final ? rows.sort((a, b) => rank(a.probe.country) - rank(b.probe.country)) : rows;
}
