import type { FailureLog } from '../../plugins/failure-log.js';
import type { Upstream } from '../../lib/upstream.js';
import { UpstreamError, UpstreamFailure, type LogFields } from '../../lib/upstream-failure.js';
import { INTERNAL_ERROR } from '../../lib/http-error.js';
import { finiteNumber } from '../../lib/json-values.js';
import type { AsnDatasets } from '../../datasets/asn/store.js';

/** What a radar view needs to answer one request. */
export interface RadarContext {
  upstream: Upstream;
  key: string;
  datasets: AsnDatasets;
  failures: FailureLog;
}

/** The frontend contract's answer when a view's Radar sources all fail: the same as a bug's, 500 Internal server error. */
export class RadarFailed extends UpstreamFailure {
  constructor(logMessage: string, logFields?: LogFields) {
    super({ status: 500, error: INTERNAL_ERROR }, logMessage, logFields);
  }
}

// Cloudflare Radar: every answer is `{success, errors, result}`.
const RADAR = 'https://api.cloudflare.com/client/v4/radar/';

interface RadarEnvelope {
  success?: boolean;
  errors?: Array<{ message?: string }>;
  result?: unknown;
}

/** The envelope's result, when it is a successful one with a result object. */
function resultOf(body: RadarEnvelope | null | undefined): object | undefined {
  if (body?.success === false || typeof body?.result !== 'object' || body.result === null) return undefined;
  return body.result;
}

/**
 * GET one Radar endpoint with the bearer key; anything but a successful
 * envelope with a result throws (and is not kept, when the client keeps answers).
 */
export async function radarGet<T>(
  upstream: Upstream,
  key: string,
  path: string,
  query: Record<string, string> = {},
): Promise<T> {
  const params = new URLSearchParams(query);
  const url = `${RADAR}${path}${params.size ? `?${params}` : ''}`;
  const body = await upstream.okJson<RadarEnvelope>(url, {
    headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
    keepIf: (data) => resultOf(data as RadarEnvelope | null) !== undefined,
  });
  const result = resultOf(body);
  if (result === undefined) {
    throw new UpstreamError(
      `Radar ${path} answered without a result${body?.errors?.[0]?.message ? `: ${body.errors[0].message}` : ''}`,
    );
  }
  return result as T;
}

/** Radar sends shares and measurements as decimal strings; non-numeric entries are dropped. */
export function numbers(record: unknown): Record<string, number> | null {
  if (!record || typeof record !== 'object') return null;
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(record)) {
    const n = finiteNumber(value);
    if (n !== null) out[name] = n;
  }
  return Object.keys(out).length ? out : null;
}
