// Globalping's measurement answer (GET /v1/measurements/<id>), read from
// untrusted JSON: anything of the wrong type becomes null or is left out, so
// a hostile or changed answer can only show less, never break the page.

export interface PingStats {
  min: number | null;
  avg: number | null;
  max: number | null;
  loss: number | null;
  total: number | null;
  rcv: number | null;
  drop: number | null;
}

export interface Probe {
  country: string;
  city: string;
  network: string;
  asn: number | null;
}

export interface ProbeResult {
  probe: Probe;
  /** `in-progress`, `finished`, `failed` or `offline`. */
  status: string;
  rawOutput: string | null;
  stats: PingStats | null;
  /** An HTTP measurement's status code. */
  statusCode: number | null;
}

export interface Measurement {
  /** `in-progress` while probes still work, then `finished`. */
  status: string;
  results: ProbeResult[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, max = 256): string => (typeof value === 'string' ? value.slice(0, max) : '');
const number = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function readStats(value: unknown): PingStats | null {
  if (!isObject(value)) return null;
  return {
    min: number(value.min),
    avg: number(value.avg),
    max: number(value.max),
    loss: number(value.loss),
    total: number(value.total),
    rcv: number(value.rcv),
    drop: number(value.drop),
  };
}

function readResult(value: unknown): ProbeResult | null {
  if (!isObject(value) || !isObject(value.probe) || !isObject(value.result)) return null;
  const { probe, result } = value;
  const country = text(probe.country, 2).toUpperCase();
  return {
    probe: {
      country: /^[A-Z]{2}$/.test(country) ? country : '',
      city: text(probe.city),
      network: text(probe.network),
      asn: Number.isInteger(probe.asn) ? (probe.asn as number) : null,
    },
    status: text(result.status, 32),
    // An MTR's whole text is a few kilobytes; more is no MTR.
    rawOutput: typeof result.rawOutput === 'string' ? result.rawOutput.slice(0, 65_536) : null,
    stats: readStats(result.stats),
    statusCode: Number.isInteger(result.statusCode) ? (result.statusCode as number) : null,
  };
}

/** The measurement in an answer, or null when the answer is not one. */
export function readMeasurement(value: unknown): Measurement | null {
  if (!isObject(value) || typeof value.status !== 'string' || !Array.isArray(value.results)) return null;
  return {
    status: value.status,
    results: value.results.slice(0, 1000).flatMap((r) => readResult(r) ?? []),
  };
}

/** The new measurement's id in the creation answer (202 `{id, probesCount}`), or null. */
export function readCreated(value: unknown): string | null {
  if (!isObject(value) || typeof value.id !== 'string') return null;
  return /^[\w-]{1,64}$/.test(value.id) ? value.id : null;
}

/** Globalping's own words for a refusal (`{error: {message}}`), cut short. */
export function readRefusal(value: unknown): string {
  if (!isObject(value)) return '';
  const error = value.error;
  return isObject(error) ? text(error.message, 300) : text(error, 300);
}
