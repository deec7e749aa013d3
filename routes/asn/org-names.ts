import type { FailureLog } from '../../plugins/failure-log.js';
import type { Upstream } from '../../lib/upstream.js';
import type { AsnDatasets } from '../../datasets/asn/store.js';

// RIPEstat is asked only for names the local snapshot lacks, and at most this
// many per answer, so one request never fans out into dozens of lookups.
const MAX_NAME_LOOKUPS = 10;
// A holder's name changes rarely; the routes that show names keep their answers 30 days too.
const NAME_KEEP_MS = 30 * 24 * 60 * 60 * 1000;

export interface OrgNameSource {
  upstream: Upstream;
  sourceApp: string;
  datasets: AsnDatasets;
  failures: FailureLog;
}

/** RIPEstat's `holder` is "HANDLE - Organisation name"; the organisation name alone reads better. */
function orgFromHolder(holder: unknown): string | null {
  if (typeof holder !== 'string') return null;
  const dash = holder.indexOf(' - ');
  const name = (dash > 0 ? holder.slice(dash + 3) : holder).trim();
  return name || null;
}

/** RIPEstat as-overview's organisation for one AS; null when the lookup fails (logged) or names nobody. */
async function ripeOrgName(source: OrgNameSource, asn: number): Promise<string | null> {
  try {
    const params = new URLSearchParams({ resource: `AS${asn}`, sourceapp: source.sourceApp });
    const body = await source.upstream.okJson<{ data?: { holder?: unknown } }>(
      `https://stat.ripe.net/data/as-overview/data.json?${params}`,
      { keepForMs: NAME_KEEP_MS },
    );
    return orgFromHolder(body?.data?.holder);
  } catch (err) {
    source.failures.logUpstreamFailure({ err, asn }, 'as-overview lookup failed');
    return null;
  }
}

/**
 * Organisation names for `asns`, in the same order: the local AS-organisation
 * snapshot first, then RIPEstat as-overview for the first MAX_NAME_LOOKUPS
 * the snapshot lacks; the rest stay null.
 */
export async function orgNames(source: OrgNameSource, asns: readonly number[]): Promise<Array<string | null>> {
  const orgs = source.datasets.orgs;
  const names: Array<string | null> = [];
  const lookups: Array<Promise<void>> = [];
  for (let i = 0; i < asns.length; i++) {
    const local = orgs?.name(asns[i]!);
    names.push(local ?? null);
    if (local === undefined && lookups.length < MAX_NAME_LOOKUPS) {
      lookups.push(ripeOrgName(source, asns[i]!).then((name) => void (names[i] = name)));
    }
  }
  if (lookups.length > 0) await Promise.all(lookups);
  return names;
}
