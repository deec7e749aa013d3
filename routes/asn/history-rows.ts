import type { HistoryRow } from '../../contract/asn.js';

/** Prefixes shorter than these are default routes or leaks that cover the address without attributing it. */
const MIN_PREFIX_LENGTH = { v4: 8, v6: 19 };
/** An origin never seen by this many RIS peers is route noise (a brief leak or typo). */
export const MIN_PEERS = 30;

export interface RipeTimeline {
  starttime?: unknown;
  endtime?: unknown;
  full_peers_seeing?: unknown;
}

export interface RipeOrigin {
  origin?: unknown;
  prefixes?: Array<{ prefix?: unknown; timelines?: RipeTimeline[] }>;
}

function longEnough(prefix: string): boolean {
  const slash = prefix.lastIndexOf('/');
  const length = slash === -1 ? NaN : Number(prefix.slice(slash + 1));
  return length >= (prefix.includes(':') ? MIN_PREFIX_LENGTH.v6 : MIN_PREFIX_LENGTH.v4);
}

/**
 * One row for an origin (`org` and `peersPct` still to fill), or null when
 * none of its prefixes or timelines count or it was never seen by MIN_PEERS peers.
 */
function originRow(entry: RipeOrigin): HistoryRow | null {
  const asn = /^(?:AS)?(\d{1,10})$/i.exec(String(entry.origin ?? ''))?.[1];
  if (!asn) return null;
  const prefixes: string[] = [];
  let firstSeen: string | undefined;
  let lastSeen: string | undefined;
  let peers = 0;
  for (const p of Array.isArray(entry.prefixes) ? entry.prefixes : []) {
    if (typeof p.prefix !== 'string' || !longEnough(p.prefix)) continue;
    prefixes.push(p.prefix);
    for (const t of Array.isArray(p.timelines) ? p.timelines : []) {
      // RIPEstat's times are fixed-width "YYYY-MM-DDTHH:MM:SS": text order is time order.
      if (typeof t.starttime === 'string' && (firstSeen === undefined || t.starttime < firstSeen)) {
        firstSeen = t.starttime;
      }
      if (typeof t.endtime === 'string' && (lastSeen === undefined || t.endtime > lastSeen)) lastSeen = t.endtime;
      if (typeof t.full_peers_seeing === 'number' && t.full_peers_seeing > peers) peers = t.full_peers_seeing;
    }
  }
  if (firstSeen === undefined || lastSeen === undefined || peers < MIN_PEERS) return null;
  return { asn: String(Number(asn)), org: null, firstSeen, lastSeen, peers: Math.round(peers), peersPct: 0, prefixes };
}

/**
 * RIPEstat routing-history's `by_origin` as one row per origin AS, newest
 * `lastSeen` first (more peers first on a tie), without organisation names.
 */
export function historyRows(origins: readonly RipeOrigin[]): HistoryRow[] {
  const rows: HistoryRow[] = [];
  for (const entry of origins) {
    const row = originRow(entry);
    if (row) rows.push(row);
  }
  rows.sort((a, b) => (a.lastSeen === b.lastSeen ? b.peers - a.peers : a.lastSeen < b.lastSeen ? 1 : -1));
  const top = rows.reduce((max, r) => Math.max(max, r.peers), 0);
  for (const row of rows) row.peersPct = Math.round((row.peers / top) * 100);
  return rows;
}
