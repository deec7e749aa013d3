import type { AsnProfile, Connectivity } from '@contract/asn.js';

export type Neighbours = NonNullable<AsnProfile['relationships']>;

/**
 * The neighbour counts the page shows: those of the AS-relationship snapshot
 * the graph is drawn from, when the AS is in it, so the counts and the drawing
 * come from one set of data; otherwise the profile's (Radar's, or its own
 * fallback to the same snapshot). Radar infers relationships its own way and
 * can count no upstream where the snapshot draws two.
 */
export function neighbourCounts(profile: AsnProfile | null, graph: Connectivity | null): Neighbours | null {
  if (graph?.relationships) return { ...graph.relationships, source: 'local' };
  return profile?.relationships ?? null;
}

/** The origin's upstreams the graph draws: only those with a path to a Tier-1 are kept. */
export function drawnUpstreams(graph: Connectivity): number {
  return new Set(graph.edges.filter((edge) => edge.from === graph.origin).map((edge) => edge.to)).size;
}

/** A snapshot's date (YYYY-MM-DD) as the page's language writes a day. */
export function snapshotDay(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}
