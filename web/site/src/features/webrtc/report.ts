import type { SectionBody } from '../../lib/report-sections.js';
import type { ProbeResult } from './stun-probe.js';
import { canonicalIp } from './verdict.js';

type WebrtcServer = SectionBody<'webrtc'>['servers'][number];

/** What the page learnt of an address from /api/geo-local. */
export interface Place {
  countryCode: string;
  org: string;
}

/** A server's id in the report: its host and port, within the report's 32 characters. */
export function serverId(url: string): string {
  return url.replace(/^stun:/, '').slice(0, 32);
}

/** The report's `webrtc` section (frontend contract 19.3) from the finished probes and the places found. */
export function webrtcSection(
  results: readonly ProbeResult[],
  places: ReadonlyMap<string, Place>,
): SectionBody<'webrtc'> {
  return {
    servers: results.slice(0, 8).map(({ url, outcome }): WebrtcServer => {
      const base = { id: serverId(url), url: url.slice(0, 128) };
      if (outcome.status !== 'found') return { ...base, natType: outcome.status };
      const ip = canonicalIp(outcome.ip);
      const place = places.get(ip);
      return {
        ...base,
        ip,
        natType: outcome.type,
        ...(place?.countryCode ? { countryCode: place.countryCode } : {}),
        ...(place?.org ? { org: place.org.slice(0, 128) } : {}),
      };
    }),
  };
}
