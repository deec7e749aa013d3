import type { FastifyReply } from 'fastify';
import type { FailureLog } from '../../plugins/failure-log.js';
import type { Upstream } from '../../lib/upstream.js';
import type { AsnDatasets } from '../../datasets/asn/store.js';
import { memoryCache } from '../../lib/memory-cache.js';
import { endsWithin } from '../../lib/deadline.js';

// RIPEstat is asked only for names the local snapshot lacks, and at most this
// many per answer, so one request never fans out into dozens of lookups.
const MAX_NAME_LOOKUPS = 10;

/**
 * How long an answer waits for the names RIPEstat is asked for. The names
 * are optional and RIPEstat often takes 10–20 s: the graph or the history is
 * answered with the names it has by then, and a lookup still running fills
 * the cache for the next request.
 */
export const NAME_WAIT_MS = 1000;

/** Seconds the ASN routes' answers may be kept (the spec's 30 days); a name RIPEstat gave, or its answer naming nobody, is kept as long. */
export const ANSWER_TTL_S = 30 * 24 * 60 * 60;
const NAME_TTL_MS = ANSWER_TTL_S * 1000;
// Far above the ASes a month of answers names past the local snapshot; a hard bound whatever is asked.
const NAME_CACHE_MAX = 10_000;

interface Lookup {
  name: string | null;
  failed: boolean;
}

export interface OrgNameSource {
  upstream: Upstream;
  sourceApp: string;
  datasets: AsnDatasets;
  /** Where a failed lookup is reported: the failure digest, as every upstream failure at request time. */
  failures: FailureLog;
  /** Aborts the lookups still running when the service stops. */
  signal: AbortSignal;
  /** How long a failed lookup is kept: UPSTREAM_FAILURE_MEMORY_MS, as for every shared upstream lookup. */
  failureMs: number;
}

export interface OrgNamesAnswer {
  /** One per AS asked, in the same order; null where no name is known (yet). */
  names: Array<string | null>;
  /** False when a lookup failed or was still running: the answer is not one to keep for a month. */
  complete: boolean;
}

/**
 * Marks an answer cacheable for ANSWER_TTL_S when every name in it is final;
 * one missing because RIPEstat failed or was late may be there on the next
 * request, so that answer stays no-store.
 */
export function cacheWhenComplete(reply: FastifyReply, { complete }: OrgNamesAnswer): void {
  if (complete) reply.header('cache-control', `public, max-age=${ANSWER_TTL_S}`);
}

/** RIPEstat's `holder` is "HANDLE - Organisation name"; the organisation name alone reads better. */
function orgFromHolder(holder: unknown): string | null {
  if (typeof holder !== 'string') return null;
  const dash = holder.indexOf(' - ');
  const name = (dash > 0 ? holder.slice(dash + 3) : holder).trim();
  return name || null;
}

/**
 * Organisation names for the ASN routes: the local AS-organisation snapshot
 * first, then RIPEstat as-overview for the first MAX_NAME_LOOKUPS the
 * snapshot lacks, each lookup shared by every request waiting for it and its
 * outcome kept (NAME_TTL_MS, a failure `failureMs`).
 */
export class OrgNames {
  private readonly lookups;

  constructor(private readonly source: OrgNameSource) {
    this.lookups = memoryCache<number, Lookup>({
      max: NAME_CACHE_MAX,
      ttlMs: NAME_TTL_MS,
      load: (asn) => this.ripeOrgName(asn),
      // A failure kept 0 ms would be kept for good by the cache: at least one millisecond.
      ttlOf: (lookup) => (lookup.failed ? Math.max(1, source.failureMs) : NAME_TTL_MS),
    });
  }

  /**
   * The names of `asns` found within `waitMs` (NAME_WAIT_MS, or less when the
   * request's deadline leaves less); the lookups not done by then go on for
   * the next request.
   */
  async names(asns: readonly number[], waitMs = NAME_WAIT_MS): Promise<OrgNamesAnswer> {
    const orgs = this.source.datasets.orgs;
    const names: Array<string | null> = [];
    const pending: Array<Promise<void>> = [];
    // Without the snapshot (still loading at start-up) a missing name may be there later: not final.
    let complete = orgs !== undefined;
    for (let i = 0; i < asns.length; i++) {
      const local = orgs?.name(asns[i]!);
      names.push(local ?? null);
      if (local !== undefined) continue;
      if (pending.length >= MAX_NAME_LOOKUPS) {
        // Past the lookups one answer may spend, a name is left out: not one to keep for a month.
        complete = false;
        continue;
      }
      pending.push(
        this.lookups.fetch(asns[i]!).then(
          (lookup) => {
            names[i] = lookup?.name ?? null;
            if (!lookup || lookup.failed) complete = false;
          },
          // Only an entry dropped while its lookup ran (evicted by a flood of others); its name stays null.
          () => void (complete = false),
        ),
      );
    }
    if (pending.length === 0) return { names, complete };
    if (!(await endsWithin(Promise.all(pending), Math.max(0, waitMs)))) complete = false;
    // A copy: a lookup that ends after the wait must not change an answer already given.
    return { names: [...names], complete };
  }

  /** RIPEstat as-overview's organisation for one AS; a failure is logged once per lookup and kept briefly. */
  private async ripeOrgName(asn: number): Promise<Lookup> {
    const { upstream, sourceApp, failures, signal } = this.source;
    try {
      const params = new URLSearchParams({ resource: `AS${asn}`, sourceapp: sourceApp });
      const body = await upstream.okJson<{ data?: { holder?: unknown } }>(
        `https://stat.ripe.net/data/as-overview/data.json?${params}`,
        { signal },
      );
      return { name: orgFromHolder(body?.data?.holder), failed: false };
    } catch (err) {
      if (!signal.aborted) failures.logUpstreamFailure({ err, asn }, 'as-overview lookup failed');
      return { name: null, failed: true };
    }
  }
}
