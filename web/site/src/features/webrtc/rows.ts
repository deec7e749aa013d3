import type { SectionBody } from '../../lib/report-sections.js';
import type { PlaceState } from './locate.js';
import type { ProbeResult } from './stun-probe.js';
import { canonicalIp } from './verdict.js';

type StoredServer = SectionBody<'webrtc'>['servers'][number];
export type NatType = StoredServer['natType'];

/** One server's row, on the page while the test runs and on a shared report alike. */
export interface ServerView {
  url: string;
  /** Why there is no address, or `found`. */
  state: 'notAsked' | 'waiting' | 'found' | 'timeout' | 'noAnswer' | 'failed' | 'unavailable' | 'error';
  ip?: string;
  natType?: NatType;
  place: PlaceState | null;
  /** Whether the address is the one this site sees (null: not compared). */
  seenBySite: boolean | null;
}

/** A row of the running page: `result` null while the server is still asked (or before the test starts). */
export function liveRow(
  url: string,
  result: ProbeResult | null,
  asked: boolean,
  places: ReadonlyMap<string, PlaceState>,
  siteSees: string | null,
): ServerView {
  if (!result) return { url, state: asked ? 'waiting' : 'notAsked', place: null, seenBySite: null };
  const { outcome } = result;
  if (outcome.status === 'unavailable') return { url, state: 'unavailable', place: null, seenBySite: null };
  if (outcome.status === 'error') return { url, state: outcome.reason, place: null, seenBySite: null };
  const ip = canonicalIp(outcome.ip);
  return {
    url,
    state: 'found',
    ip,
    natType: outcome.type,
    place: places.get(ip) ?? null,
    seenBySite: siteSees ? ip === canonicalIp(siteSees) : null,
  };
}

/** A row of a shared report: what was kept of the server (no comparison: the report holds no site address). */
export function storedRow(server: StoredServer): ServerView {
  const { url, ip, natType, countryCode, org } = server;
  if (natType === 'unavailable' || natType === 'error' || !ip) {
    return { url, state: natType === 'unavailable' ? 'unavailable' : 'error', place: null, seenBySite: null };
  }
  const place: PlaceState | null =
    countryCode || org ? { status: 'done', place: { countryCode: countryCode ?? '', org: org ?? '' } } : null;
  return { url, state: 'found', ip, natType, place, seenBySite: null };
}
