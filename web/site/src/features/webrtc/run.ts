import { getJson } from '../../api/client';
import type { ClientIp } from '../../api/types';
import type { SectionBody } from '../../lib/report-sections';
import { locate, type PlaceState } from './locate';
import { webrtcSection, type Place } from './report';
import { browserClock, browserPeerFactory, probeAll, probeLocalAddresses, type ProbeResult } from './stun-probe';
import { canonicalIp, verdictOf, type Verdict } from './verdict';

/** A finished WebRTC run: its conclusion, the local addresses seen, what this site sees, the report's section. */
export interface WebrtcRun {
  verdict: Verdict;
  hosts: string[];
  siteSees: string | null;
  section: SectionBody<'webrtc'>;
}

async function askSite(): Promise<string | null> {
  try {
    return (await getJson<ClientIp>('/api/client-ip')).ip;
  } catch {
    // The verdict then says the comparison could not be made.
    return null;
  }
}

/**
 * The WebRTC test, for its page and the run-all page alike: every STUN server
 * at once, each result and each address's place handed over as they land, the
 * local addresses' own probe (no server: no row, but part of the verdict) and
 * this site's view of the visitor; the report's section waits for the places.
 */
export async function runWebrtc(options: {
  servers: readonly string[];
  locale: string;
  onResult: (index: number, result: ProbeResult) => void;
  onPlace: (ip: string, state: PlaceState) => void;
}): Promise<WebrtcRun> {
  const places = new Map<string, Promise<PlaceState>>();
  const deps = { createPeer: browserPeerFactory(), clock: browserClock };
  const [all, own, siteSees] = await Promise.all([
    probeAll(options.servers, deps, (i, result) => {
      options.onResult(i, result);
      if (result.outcome.status !== 'found') return;
      const ip = canonicalIp(result.outcome.ip);
      if (places.has(ip)) return;
      options.onPlace(ip, { status: 'locating' });
      places.set(
        ip,
        locate(ip, options.locale).then((state) => {
          options.onPlace(ip, state);
          return state;
        }),
      );
    }),
    probeLocalAddresses(deps),
    askSite(),
  ]);
  const found = new Map<string, Place>();
  for (const [ip, pending] of places) {
    const state = await pending;
    if (state.status === 'done') found.set(ip, state.place);
  }
  return {
    verdict: verdictOf([...all, own], siteSees),
    hosts: [...new Set([own, ...all].flatMap((r) => r.hosts))],
    siteSees,
    section: webrtcSection(all, found),
  };
}
