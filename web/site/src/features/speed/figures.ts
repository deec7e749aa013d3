import type { Results } from '@cloudflare/speedtest';
import type { Report } from '@contract/report.js';
import { isIp } from '../../lib/ip.js';

/** What the page shows of a run, live and at the end; null where nothing is measured yet. */
/** The report's `speedtest` section as a run hands it over (recordSection stamps `testedAt`). */
export type SpeedSection = Omit<NonNullable<Report['sections']['speedtest']>, 'testedAt'>;

export interface Figures {
  downloadMbps: number | null;
  uploadMbps: number | null;
  latencyMs: number | null;
  jitterMs: number | null;
  loadedLatencyDownMs: number | null;
  loadedLatencyUpMs: number | null;
  /** Each finished transfer's speed in Mb/s, in order: the chart's points. */
  downloadPoints: number[];
  uploadPoints: number[];
}

export const NO_FIGURES: Figures = {
  downloadMbps: null,
  uploadMbps: null,
  latencyMs: null,
  jitterMs: null,
  loadedLatencyDownMs: null,
  loadedLatencyUpMs: null,
  downloadPoints: [],
  uploadPoints: [],
};

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** A measured value, or null for one the engine has not got (undefined, NaN, infinite or negative). */
function measured(value: number | null | undefined, digits: number): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? round(value, digits) : null;
}

/** Bits per second as megabits per second (10^6), to two decimals; null for none measured. */
export function mbps(bps: number | null | undefined): number | null {
  // The engine reports 0 for a direction with no transfer long enough to count yet.
  return measured(typeof bps === 'number' && bps > 0 ? bps / 1e6 : undefined, 2);
}

/** The engine's results as figures; the engine throws for a value it has no measurement for yet. */
export function figuresOf(results: Results): Figures {
  const read = <T>(get: () => T): T | undefined => {
    try {
      return get();
    } catch {
      return undefined;
    }
  };
  const points = (get: () => { bps?: number }[]) =>
    (read(get) ?? []).map((p) => mbps(p.bps)).filter((v): v is number => v !== null);
  return {
    downloadMbps: mbps(read(() => results.getDownloadBandwidth())),
    uploadMbps: mbps(read(() => results.getUploadBandwidth())),
    latencyMs: measured(
      read(() => results.getUnloadedLatency()),
      1,
    ),
    jitterMs: measured(
      read(() => results.getUnloadedJitter()),
      1,
    ),
    // With no probe during a transfer the engine reports 0 ms, which would read as a perfect line.
    loadedLatencyDownMs: read(() => results.getDownLoadedLatencyPoints())?.length
      ? measured(
          read(() => results.getDownLoadedLatency()),
          1,
        )
      : null,
    loadedLatencyUpMs: read(() => results.getUpLoadedLatencyPoints())?.length
      ? measured(
          read(() => results.getUpLoadedLatency()),
          1,
        )
      : null,
    downloadPoints: points(() => results.getDownloadBandwidthPoints()),
    uploadPoints: points(() => results.getUploadBandwidthPoints()),
  };
}

export type Quality = 'bad' | 'poor' | 'average' | 'good' | 'great';
export const EXPERIENCES = ['streaming', 'gaming', 'rtc'] as const;
export type Experience = (typeof EXPERIENCES)[number];
export type Scores = Partial<Record<Experience, { points: number; quality: Quality }>>;

/** The engine's AIM scores for the three experiences it rates, when it could rate them. */
export function scoresOf(results: Results): Scores {
  let all: ReturnType<Results['getScores']>;
  try {
    all = results.getScores();
  } catch {
    return {};
  }
  const out: Scores = {};
  for (const name of EXPERIENCES) {
    const s = all[name];
    if (s && Number.isFinite(s.points)) out[name] = { points: Math.round(s.points), quality: s.classificationName };
  }
  return out;
}

export interface Connection {
  ip?: string;
  colo?: string;
  coloCountryCode?: string;
  coloCity?: string;
}

const cap = (value: number | null, max: number) => (value === null ? null : Math.min(value, max));

/** The report's `speedtest` section (frontend contract 19.3): values within its bounds, unknown ones left out. */
export function speedSection(figures: Figures, scores: Scores, connection: Connection): SpeedSection {
  const section: SpeedSection = {
    downloadMbps: cap(figures.downloadMbps, 1e6),
    uploadMbps: cap(figures.uploadMbps, 1e6),
    latencyMs: cap(figures.latencyMs, 600_000),
    jitterMs: cap(figures.jitterMs, 600_000),
    loadedLatencyDownMs: cap(figures.loadedLatencyDownMs, 600_000),
    loadedLatencyUpMs: cap(figures.loadedLatencyUpMs, 600_000),
  };
  const named = EXPERIENCES.filter((name) => scores[name]);
  if (named.length) {
    section.scores = Object.fromEntries(named.map((n) => [n, Math.min(10_000, Math.max(0, scores[n]!.points))]));
    section.qualities = Object.fromEntries(named.map((n) => [n, scores[n]!.quality]));
  }
  const conn: NonNullable<SpeedSection['connection']> = {};
  if (connection.ip && isIp(connection.ip)) conn.ip = connection.ip;
  if (connection.colo) conn.colo = connection.colo.slice(0, 8);
  if (connection.coloCountryCode && /^[A-Z]{2}$/.test(connection.coloCountryCode)) {
    conn.coloCountryCode = connection.coloCountryCode;
  }
  if (connection.coloCity) conn.coloCity = connection.coloCity.slice(0, 64);
  if (Object.keys(conn).length) section.connection = conn;
  return section;
}
